import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { projectGit } from '@z-engine/engine/repository'

/** The most paths `@` completion indexes (a huge tree is cut, not walked to the end). */
export const FILE_INDEX_LIMIT = 50_000

const SKIPPED = new Set([
  '.git',
  'node_modules',
  '.z-engine',
  'dist',
  'build',
  'target',
  '.venv',
  '__pycache__',
])

/**
 * The project's files for `@` completion, relative to the root: git's tracked and untracked
 * non-ignored files in a repository, else a bounded walk that skips dependency and build folders.
 */
export async function listProjectFiles(root: string): Promise<string[]> {
  // Hardened: `ls-files` would run the repository's `core.fsmonitor` (issue 34).
  const listed = await projectGit(['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    timeoutMs: 0,
  })
  const fromGit = listed.ok ? listed.stdout.split('\0').filter((path) => path !== '') : undefined
  if (fromGit) return [...new Set(fromGit)].slice(0, FILE_INDEX_LIMIT)
  const files: string[] = []
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
    for (const entry of entries) {
      if (files.length >= FILE_INDEX_LIMIT) return
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) await walk(join(dir, entry.name), path)
      } else if (entry.isFile()) files.push(path)
    }
  }
  await walk(root, '')
  return files
}

/**
 * The files matching what follows `@`: names starting with the query first, then paths holding it,
 * shorter paths first; at most `limit`.
 */
export function matchFiles(files: readonly string[], query: string, limit = 50): string[] {
  const needle = query.toLowerCase()
  const scored: Array<{ path: string; score: number }> = []
  for (const path of files) {
    const lower = path.toLowerCase()
    const base = lower.slice(lower.lastIndexOf('/') + 1)
    const score =
      needle === ''
        ? 2
        : lower.startsWith(needle)
          ? 0
          : base.startsWith(needle)
            ? 1
            : lower.includes(needle)
              ? 2
              : -1
    if (score >= 0) scored.push({ path, score })
  }
  scored.sort((a, b) => a.score - b.score || a.path.length - b.path.length || a.path.localeCompare(b.path))
  return scored.slice(0, limit).map((entry) => entry.path)
}
