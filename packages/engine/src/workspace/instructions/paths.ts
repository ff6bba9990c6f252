import { realpath } from 'node:fs/promises'
import { isAbsolute, join, relative, sep } from 'node:path'

/** Whether `path` is `root` or inside it (both absolute, already resolved). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

/** The real path, or null when it does not exist. */
export async function realPathOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path)
  } catch {
    return null
  }
}

/**
 * How a path is shown to the model: relative to the project inside it or inside its repository
 * (`../../AGENTS.md`), `~/…` under home, else absolute.
 */
export function displayPath(
  path: string,
  projectRoot: string,
  home: string,
  repositoryRoot = projectRoot,
): string {
  if (isInside(projectRoot, path) || isInside(repositoryRoot, path))
    return toPosix(relative(projectRoot, path)) || '.'
  if (isInside(home, path)) return `~/${toPosix(relative(home, path))}`
  return toPosix(path)
}

/** The z-engine user folder, `~/.config/z-engine`. */
export function userConfigDir(home: string): string {
  return join(home, '.config', 'z-engine')
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/')
}
