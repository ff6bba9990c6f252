import { realpath, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join, resolve, sep } from 'node:path'
import { UsageError } from './cli-error.js'

/** Where a command works: the project (settings, hooks, sessions, instructions) and the folder the shell starts in. */
export interface ProjectPlace {
  root: string
  /** The folder the command was run from (or `--cwd`), inside `root`. */
  cwd: string
}

/**
 * The project of a command run from `cwd` (issue 19, as Claude Code users expect): with `--cwd DIR`,
 * that folder; otherwise the nearest folder from `cwd` up that holds `.git` (the repository root)
 * or `.z-engine/` (a project's own settings, say a package of a monorepo), never above or at the
 * home folder unless the command was run there; no such folder: `cwd` itself. Real paths, since
 * the store keys sessions by them, so `--continue` and `sessions list` find them through a
 * symlinked folder too.
 */
export async function projectPlace(
  cwd: string,
  flag: string | undefined,
  home: string = homedir(),
): Promise<ProjectPlace> {
  const dir = resolve(cwd, flag ?? '.')
  const info = await stat(dir).catch(() => undefined)
  if (!info?.isDirectory())
    throw new UsageError(`--cwd ${dir} is not a folder; pass an existing project folder.`)
  const real = await realpath(dir)
  if (flag !== undefined) return { root: real, cwd: real }
  return { root: await enclosingProject(real, await realpath(home).catch(() => resolve(home))), cwd: real }
}

/** The project folder of a command (see {@link projectPlace}). */
export async function projectDir(
  cwd: string,
  flag: string | undefined,
  home: string = homedir(),
): Promise<string> {
  return (await projectPlace(cwd, flag, home)).root
}

async function enclosingProject(start: string, home: string): Promise<string> {
  for (let folder = start; ; folder = dirname(folder)) {
    // The home folder is nobody's project (a dotfiles repository in ~ must not swallow every folder).
    if (folder === home && folder !== start) return start
    if (await holdsMarker(folder)) return folder
    if (dirname(folder) === folder) return start
  }
}

async function holdsMarker(folder: string): Promise<boolean> {
  // `.git` is a folder in a repository and a file in a worktree or submodule.
  if ((await stat(join(folder, '.git')).catch(() => undefined)) !== undefined) return true
  return (await stat(join(folder, '.z-engine')).catch(() => undefined))?.isDirectory() === true
}

/** `cwd` when it is a folder strictly inside `root` (an engine session's `cwd` option), else undefined. */
export function shellStart(root: string, cwd: string): string | undefined {
  return cwd !== root && cwd.startsWith(`${root}${sep}`) ? cwd : undefined
}
