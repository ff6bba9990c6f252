import picomatch from 'picomatch'

/** What an override glob list says about a path. */
export type OverrideMatch = 'ignore' | 'whitelist' | 'none'

/** ripgrep-style `--glob` overrides: gitignore syntax, `!` excludes, the last matching glob wins. */
export interface Overrides {
  /** True when any glob selects files (then a file that matches none is left out). */
  readonly hasWhitelist: boolean
  match(relativePath: string, isDir: boolean): OverrideMatch
}

interface CompiledGlob {
  negated: boolean
  dirOnly: boolean
  test: (path: string) => boolean
}

/** Version-control folders no search descends into (also passed to ripgrep as `!` globs). */
export const VCS_DIRS: readonly string[] = ['.git', '.svn', '.hg', '.bzr', '.jj', '.sl']

/**
 * Compiles globs like ripgrep's `--glob`: a glob without a slash matches a name at any depth, one
 * with a slash is anchored at the search root, a trailing slash matches folders only.
 */
export function compileOverrides(globs: readonly string[]): Overrides {
  const compiled: CompiledGlob[] = []
  for (const raw of globs) {
    if (raw === '' || raw === '!') continue
    const negated = raw.startsWith('!')
    let body = negated ? raw.slice(1) : raw
    const dirOnly = body.endsWith('/')
    if (dirOnly) body = body.slice(0, -1)
    const anchored = body.includes('/')
    if (body.startsWith('/')) body = body.slice(1)
    const pattern = anchored ? body : `**/${body}`
    compiled.push({ negated, dirOnly, test: picomatch(pattern, { dot: true }) })
  }
  const hasWhitelist = compiled.some((glob) => !glob.negated)
  return {
    hasWhitelist,
    match(relativePath, isDir) {
      for (let index = compiled.length - 1; index >= 0; index -= 1) {
        const glob = compiled[index]!
        if (glob.dirOnly && !isDir) continue
        if (glob.test(relativePath)) return glob.negated ? 'ignore' : 'whitelist'
      }
      // With selecting globs, an unmatched file is out; folders are still walked.
      return hasWhitelist && !isDir ? 'ignore' : 'none'
    },
  }
}

/**
 * Splits Grep's `glob` input into globs: whitespace or commas separate them, except inside
 * braces (`*.{ts,tsx}` stays one glob).
 */
export function splitGlobInput(input: string): string[] {
  const globs: string[] = []
  let current = ''
  let depth = 0
  for (const char of input) {
    if (char === '{') depth += 1
    if (char === '}') depth = Math.max(0, depth - 1)
    if (depth === 0 && (char === ',' || /\s/.test(char))) {
      if (current !== '') globs.push(current)
      current = ''
      continue
    }
    current += char
  }
  if (current !== '') globs.push(current)
  return globs
}

/** A matcher for file names of the given ripgrep types; unknown names are reported. */
export function compileTypes(
  names: readonly string[],
  table: Readonly<Record<string, readonly string[]>>,
): { ok: true; test: (fileName: string) => boolean } | { ok: false; unknown: string } {
  const globs: string[] = []
  for (const name of names) {
    const entry = table[name]
    if (!entry) return { ok: false, unknown: name }
    globs.push(...entry)
  }
  const test = picomatch(globs as string[], { dot: true })
  return { ok: true, test: (fileName) => test(fileName) }
}
