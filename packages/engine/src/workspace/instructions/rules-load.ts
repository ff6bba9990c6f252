import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { claudeRuleFromFrontmatter, type Rule, ruleFromFrontmatter, truncateUtf8 } from '@z-engine/context'
import { parse as parseYaml } from 'yaml'
import { displayPath, userConfigDir } from './paths.js'

/** Loaded rules and the files that could not be used. */
export interface LoadedRules {
  /** User rules first, then project rules, each in path order. */
  rules: Rule[]
  /** One message per unusable file, saying what to fix. */
  errors: string[]
}

/** Where rules are read from. */
export interface RuleDiscoveryOptions {
  projectRoot: string
  home: string
  /** The z-engine config folder (default `~/.config/z-engine`). */
  configDir?: string
  /** `compat.claude` (default true): also read Claude Code's `~/.claude/rules` and `.claude/rules`. */
  compatClaude?: boolean
  /** Read the user's own rules (`~/.claude/rules`, the config folder's); default true. */
  userFiles?: boolean
}

type RuleFolder = { folder: string; format: 'z-engine' | 'claude' }

/**
 * Loads glob-scoped rules: markdown files under `rules/` (subfolders allowed) in the config folder
 * and `<project>/.z-engine/` (frontmatter `globs` and/or `alwaysApply`), and with `compat.claude`
 * Claude Code's `~/.claude/rules/` and `<project>/.claude/rules/` (frontmatter `paths`; none means
 * always). User rules come before project rules. Never throws.
 */
export async function loadRules(options: RuleDiscoveryOptions): Promise<LoadedRules> {
  const rules: Rule[] = []
  const errors: string[] = []
  const compat = options.compatClaude ?? true
  const user = options.userFiles !== false
  const folders: RuleFolder[] = [
    ...(compat && user
      ? [{ folder: join(options.home, '.claude', 'rules'), format: 'claude' as const }]
      : []),
    ...(user
      ? [
          {
            folder: join(options.configDir ?? userConfigDir(options.home), 'rules'),
            format: 'z-engine' as const,
          },
        ]
      : []),
    ...(compat ? [{ folder: join(options.projectRoot, '.claude', 'rules'), format: 'claude' as const }] : []),
    { folder: join(options.projectRoot, '.z-engine', 'rules'), format: 'z-engine' },
  ]
  for (const { folder, format } of folders) {
    for (const path of await markdownFiles(folder)) {
      const display = displayPath(path, options.projectRoot, options.home)
      let text: string
      try {
        text = truncateUtf8(await readFile(path, 'utf8')).text
      } catch (error) {
        errors.push(`${display}: could not be read (${String(error)}).`)
        continue
      }
      const split = splitFrontmatter(text)
      if (!split.ok) {
        errors.push(`${display}: ${split.error}`)
        continue
      }
      const result =
        format === 'claude'
          ? claudeRuleFromFrontmatter(display, split.data, split.body)
          : ruleFromFrontmatter(display, split.data, split.body)
      if (result.ok) rules.push(result.rule)
      else errors.push(result.error)
    }
  }
  return { rules, errors }
}

/** Splits `---` YAML frontmatter from a markdown body; no frontmatter gives empty data. */
export function splitFrontmatter(
  text: string,
): { ok: true; data: unknown; body: string } | { ok: false; error: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text)
  if (!match) return { ok: true, data: {}, body: text }
  try {
    return { ok: true, data: parseYaml(match[1] ?? '') ?? {}, body: text.slice(match[0].length) }
  } catch (error) {
    return {
      ok: false,
      error: `the frontmatter is not valid YAML (${String(error).split('\n')[0]}); fix it.`,
    }
  }
}

async function markdownFiles(folder: string): Promise<string[]> {
  const found: string[] = []
  let entries: import('node:fs').Dirent[]
  try {
    entries = await readdir(folder, { withFileTypes: true })
  } catch {
    return found
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const entry of entries) {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) found.push(...(await markdownFiles(path)))
    else if (entry.isFile() && entry.name.endsWith('.md')) found.push(path)
  }
  return found
}
