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

/**
 * Patterns given as a list or a comma-separated string, trimmed; undefined when malformed. As in
 * Claude Code, a string splits only at commas outside braces (`src/**\/*.{ts,tsx}` is one pattern),
 * and each brace alternative becomes its own pattern (`src/**\/*.ts`, `src/**\/*.tsx`).
 */
function patternList(raw: unknown): string[] | undefined {
  let globs: string[]
  if (raw === undefined || raw === null) globs = []
  else if (typeof raw === 'string') globs = splitOutsideBraces(raw)
  else if (Array.isArray(raw) && raw.every((glob) => typeof glob === 'string')) globs = raw
  else return undefined
  return globs
    .map((glob) => glob.trim())
    .filter((glob) => glob !== '')
    .flatMap(expandBraces)
}

function splitOutsideBraces(text: string): string[] {
  const parts: string[] = []
  let current = ''
  let depth = 0
  for (const char of text) {
    if (char === '{') depth++
    else if (char === '}') depth = Math.max(0, depth - 1)
    if (char === ',' && depth === 0) {
      parts.push(current)
      current = ''
    } else current += char
  }
  parts.push(current)
  return parts
}

/** At most this many patterns from one (Claude Code bounds its brace expansion too). */
const MAX_BRACE_PATTERNS = 1000

/** `a/*.{ts,tsx}` → `a/*.ts`, `a/*.tsx` (innermost-first, nested braces too); bounded. */
function expandBraces(pattern: string): string[] {
  const done: string[] = []
  const pending = [pattern]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const match = /^([^{]*)\{([^{}]+)\}(.*)$/.exec(next) ?? /^(.*)\{([^{}]+)\}(.*)$/.exec(next)
    if (match === null || !match[2]!.includes(',')) {
      done.push(next)
      continue
    }
    const [, before, inner, after] = match as unknown as [string, string, string, string]
    const options = inner.split(',').map((option) => option.trim())
    if (done.length + pending.length + options.length > MAX_BRACE_PATTERNS) return [pattern]
    for (let index = options.length - 1; index >= 0; index--) pending.push(before + options[index] + after)
  }
  return done
}

/** Whether a glob rule applies to a path relative to the agent's root. */
export function ruleMatches(rule: Rule, relativePath: string): boolean {
  if (rule.globs.length === 0) return false
  return createGlobMatcher(rule.globs).matches(relativePath)
}
