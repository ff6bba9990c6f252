import { realpath, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { resolve, sep } from 'node:path'
// The walk's own entry (Node built-ins only): this module sits on paths that must stay light until
// they need the engine, such as the chat's early prompt box.
import { findProjectRoot } from '@z-engine/engine/project-root'
import { UsageError } from './cli-error.js'

/** Where a command works: the project (settings, hooks, sessions, instructions) and the folder the shell starts in. */
export interface ProjectPlace {
  root: string
  /** The folder the command was run from (or `--cwd`), inside `root`. */
  cwd: string
}

/**
 * The project of a command run from `cwd`: with `--cwd DIR`, that folder exactly; otherwise the
 * engine's `findProjectRoot` (the repository root or nearest `.z-engine/`, never the home folder
 * from below it). Real paths, since the store keys sessions by them, so `--continue` and
 * `sessions list` find them through a symlinked folder too.
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
  return { root: await findProjectRoot(real, home), cwd: real }
}

/** The project folder of a command (see {@link projectPlace}). */
export async function projectDir(
  cwd: string,
  flag: string | undefined,
  home: string = homedir(),
): Promise<string> {
  return (await projectPlace(cwd, flag, home)).root
}

/** `cwd` when it is a folder strictly inside `root` (an engine session's `cwd` option), else undefined. */
export function shellStart(root: string, cwd: string): string | undefined {
  return cwd !== root && cwd.startsWith(`${root}${sep}`) ? cwd : undefined
}
