import { realpath, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { UsageError } from './cli-error.js'

/** The project folder of a command: `--cwd DIR` against the process cwd; must be a folder; real path. */
export async function projectDir(cwd: string, flag: string | undefined): Promise<string> {
  const dir = resolve(cwd, flag ?? '.')
  const info = await stat(dir).catch(() => undefined)
  if (!info?.isDirectory())
    throw new UsageError(`--cwd ${dir} is not a folder; pass an existing project folder.`)
  // The store keys sessions by the real path (as the engine does), so --continue and
  // 'sessions list' find them through a symlinked folder too.
  return realpath(dir)
}
