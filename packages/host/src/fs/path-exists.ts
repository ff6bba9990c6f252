import { lstat, stat } from 'node:fs/promises'

/**
 * Whether something is at `path` (any kind; unreadable counts as absent). With `followLinks: false` a
 * dangling symlink counts as there: the link itself is.
 */
export async function pathExists(path: string, options: { followLinks?: boolean } = {}): Promise<boolean> {
  return (options.followLinks === false ? lstat(path) : stat(path)).then(
    () => true,
    () => false,
  )
}
