import { createGlobMatcher, normalizeRelative } from './glob.js'
import type { InstructionFile, Rule } from './types.js'

/** A nested instruction file or glob rule to show the agent as a reminder. */
export type Announcement = { kind: 'nested'; file: InstructionFile } | { kind: 'rule'; rule: Rule }

/**
 * The folders (relative to the agent's root, root excluded) a touched path sits in or below, outer
 * first: where nested AGENTS.md/CLAUDE.md files that apply to it can be. The root's own files are
 * already in the system prompt.
 */
export function nestedFolders(relativePath: string, isDirectory = false): string[] {
  const normalized = normalizeRelative(relativePath)
  if (normalized === null) return []
  const parts = normalized.split('/')
  const depth = isDirectory ? parts.length : parts.length - 1
  const folders: string[] = []
  for (let i = 1; i <= depth; i++) folders.push(parts.slice(0, i).join('/'))
  return folders
}

/**
 * Announces nested instruction files and glob rules once per agent, on first touch (spec 003). Keep
 * one per agent run; its state is just the keys already announced, so it can be saved and restored.
 */
export class AnnouncementTracker {
  private readonly announced: Set<string>

  constructor(announced: Iterable<string> = []) {
    this.announced = new Set(announced)
  }

  /** Keys already announced (file and rule paths), for persistence. */
  keys(): string[] {
    return [...this.announced].sort()
  }

  /**
   * Given the paths a tool batch read or wrote (relative to the agent's root), the nested files
   * found in their folders (each `path` relative to the root) and the glob rules, returns what to
   * announce now and remembers it. Nested files come outer folder first, then rules by path.
   */
  take(input: {
    touched: readonly string[]
    nestedFiles: readonly InstructionFile[]
    rules: readonly Rule[]
  }): Announcement[] {
    const touched = input.touched.map(normalizeRelative).filter((path): path is string => path !== null)
    const folders = new Set(touched.flatMap((path) => nestedFolders(path)))
    const announcements: Announcement[] = []
    const nested = input.nestedFiles
      .filter((file) => folders.has(folderOf(file.path)) && !this.announced.has(file.path))
      .sort((a, b) => depth(a.path) - depth(b.path) || compare(a.path, b.path))
    for (const file of nested) {
      this.announced.add(file.path)
      announcements.push({ kind: 'nested', file })
    }
    const rules = input.rules
      .filter(
        (rule) => !rule.alwaysApply && rule.globs.length > 0 && !this.announced.has(`rule:${rule.path}`),
      )
      .sort((a, b) => compare(a.path, b.path))
    for (const rule of rules) {
      const matcher = createGlobMatcher(rule.globs)
      if (!touched.some((path) => matcher.matches(path))) continue
      this.announced.add(`rule:${rule.path}`)
      announcements.push({ kind: 'rule', rule })
    }
    return announcements
  }
}

function folderOf(path: string): string {
  const normalized = normalizeRelative(path) ?? ''
  const slash = normalized.lastIndexOf('/')
  return slash < 0 ? '' : normalized.slice(0, slash)
}

function depth(path: string): number {
  return path.split('/').length
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
