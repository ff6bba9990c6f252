import { realpath, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

/**
 * The project a folder belongs to, as Claude Code users expect: the nearest folder from `dir` up
 * that holds `.git` (the repository root; a file in a worktree or submodule) or `.z-engine/` (a
 * project's own settings, say one package of a monorepo). The walk never stops at or above the
 * home folder unless it started there, since a dotfiles repository in `~` must not swallow every
 * folder below it; with no such folder the answer is `dir` itself. Paths are real (symlinks
 * resolved), since sessions are keyed by them. Throws when `dir` does not exist.
 */
export async function findProjectRoot(dir: string, home: string = homedir()): Promise<string> {
  const start = await realpath(resolve(dir))
  const realHome = await realpath(home).catch(() => resolve(home))
  for (let folder = start; ; folder = dirname(folder)) {
    if (folder === realHome && folder !== start) return start
    if (await holdsMarker(folder)) return folder
    if (dirname(folder) === folder) return start
  }
}

async function holdsMarker(folder: string): Promise<boolean> {
  if ((await stat(join(folder, '.git')).catch(() => undefined)) !== undefined) return true
  return (await stat(join(folder, '.z-engine')).catch(() => undefined))?.isDirectory() === true
}
