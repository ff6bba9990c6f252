import ignore from 'ignore'

/** Matches relative paths against gitignore-style patterns. */
export interface GlobMatcher {
  /**
   * Whether the path (relative, `/`-separated) matches; paths outside the root never match. Pass
   * `isDirectory` for folders so directory-only patterns (`build/`) apply.
   */
  matches(relativePath: string, isDirectory?: boolean): boolean
}

/**
 * Builds a matcher for gitignore-style patterns (as in `.gitignore` and rule `globs`): a pattern
 * without `/` matches at any depth, a leading `/` anchors it, `**` spans folders, `!` negates.
 */
export function createGlobMatcher(patterns: readonly string[]): GlobMatcher {
  const matcher = ignore({ allowRelativePaths: true }).add(
    patterns.filter((pattern) => pattern.trim() !== ''),
  )
  return {
    matches(relativePath: string, isDirectory = false): boolean {
      const normalized = normalizeRelative(relativePath)
      if (normalized === null) return false
      return matcher.ignores(isDirectory ? `${normalized}/` : normalized)
    },
  }
}

/** Normalizes a relative path for matching, or null when it is empty or leaves the root. */
export function normalizeRelative(path: string): string | null {
  const parts: string[] = []
  for (const part of path.replaceAll('\\', '/').split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') return null
    parts.push(part)
  }
  return parts.length === 0 ? null : parts.join('/')
}
