/**
 * Lexical path handling. The policy never touches the file system, so `..` is resolved on the
 * text alone (POSIX semantics). A backslash is kept as an ordinary character (it is one on POSIX),
 * but {@link isAmbiguousPath} flags it so callers can refuse to auto-allow such a path: a Windows
 * reading of the same text could point somewhere else.
 */

const NEEDS_WORK = /\/\/|\/\.\.?(?:\/|$)|.\/$/

/** Collapses `.`, `..` and duplicate slashes of an absolute path; `..` never climbs above `/`. */
export function normalizePath(path: string): string {
  // Fast path: most paths are already normal (absolute, no `.`/`..` segments, no `//`, no trailing `/`).
  if (path.startsWith('/') && !NEEDS_WORK.test(path)) return path
  const out: string[] = []
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') out.pop()
    else out.push(segment)
  }
  return `/${out.join('/')}`
}

/**
 * Resolves `input` as a shell or tool would: `~` and `~/…` against `home`, absolute paths as they
 * are, anything else against `base`. The result is normalized and always absolute.
 */
export function resolvePath(base: string, input: string, home: string): string {
  if (input === '~') return normalizePath(home)
  if (input.startsWith('~/')) return normalizePath(`${home}/${input.slice(2)}`)
  if (input.startsWith('/')) return normalizePath(input)
  return normalizePath(`${base}/${input}`)
}

/** True when `path` is `root` or lies below it (both normalized). */
export function isWithin(path: string, root: string): boolean {
  if (root === '/') return true
  return path === root || path.startsWith(`${root}/`)
}

/** `path` relative to `root` (no leading slash), or undefined when it is not within it. */
export function relativeTo(path: string, root: string): string | undefined {
  if (!isWithin(path, root)) return undefined
  if (path === root) return ''
  return root === '/' ? path.slice(1) : path.slice(root.length + 1)
}

/** True for text a Windows reading could resolve differently, or that no file system accepts. */
export function isAmbiguousPath(path: string): boolean {
  return path.includes('\\') || path.includes('\0') || /^[A-Za-z]:/.test(path)
}
