import { createGlobMatcher } from './glob.js'
import type { Rule } from './types.js'

/** A checked rule, or why a rule file cannot be used. */
export type RuleResult = { ok: true; rule: Rule } | { ok: false; error: string }

/**
 * Builds a rule from a file's parsed frontmatter (`globs`, `alwaysApply`, `description`) and body.
 * `globs` may be a list or a comma-separated string. A rule with neither globs nor alwaysApply is
 * never used, so it is reported rather than silently ignored. Never throws.
 */
export function ruleFromFrontmatter(path: string, frontmatter: unknown, body: string): RuleResult {
  const data = frontmatter === null || frontmatter === undefined ? {} : frontmatter
  if (typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, error: `${path}: frontmatter must be a mapping with globs and/or alwaysApply.` }
  }
  const record = data as Record<string, unknown>
  const globs = patternList(record.globs)
  if (globs === undefined)
    return { ok: false, error: `${path}: globs must be a list of patterns or a comma-separated string.` }

  const rawAlways = record.alwaysApply ?? false
  if (typeof rawAlways !== 'boolean') {
    return { ok: false, error: `${path}: alwaysApply must be true or false.` }
  }
  if (!rawAlways && globs.length === 0) {
    return {
      ok: false,
      error: `${path}: the rule has neither globs nor alwaysApply: true, so it is never used.`,
    }
  }
  const rule: Rule = { path, globs, alwaysApply: rawAlways, body }
  if (typeof record.description === 'string') rule.description = record.description
  return { ok: true, rule }
}

/**
 * Builds a rule from a Claude Code rule file (`.claude/rules/*.md`): `paths` (a list or a
 * comma-separated string of patterns) scopes it to matching files; without `paths` it always
 * applies, as in Claude Code. Never throws.
 */
export function claudeRuleFromFrontmatter(path: string, frontmatter: unknown, body: string): RuleResult {
  const data = frontmatter === null || frontmatter === undefined ? {} : frontmatter
  if (typeof data !== 'object' || Array.isArray(data))
    return { ok: false, error: `${path}: frontmatter must be a mapping (paths, description).` }
  const record = data as Record<string, unknown>
  const globs = patternList(record.paths)
  if (globs === undefined)
    return { ok: false, error: `${path}: paths must be a list of patterns or a comma-separated string.` }
  const rule: Rule = { path, globs, alwaysApply: globs.length === 0, body }
  if (typeof record.description === 'string') rule.description = record.description
  return { ok: true, rule }
}

/** Patterns given as a list or a comma-separated string, trimmed; undefined when malformed. */
function patternList(raw: unknown): string[] | undefined {
  let globs: string[]
  if (raw === undefined || raw === null) globs = []
  else if (typeof raw === 'string') globs = raw.split(',')
  else if (Array.isArray(raw) && raw.every((glob) => typeof glob === 'string')) globs = raw
  else return undefined
  return globs.map((glob) => glob.trim()).filter((glob) => glob !== '')
}

/** Whether a glob rule applies to a path relative to the agent's root. */
export function ruleMatches(rule: Rule, relativePath: string): boolean {
  if (rule.globs.length === 0) return false
  return createGlobMatcher(rule.globs).matches(relativePath)
}
