import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { UsageError } from './cli-error.js'

/** The project folder of a command: `--cwd DIR` against the process cwd, which must be a folder. */
export async function projectDir(cwd: string, flag: string | undefined): Promise<string> {
  const dir = resolve(cwd, flag ?? '.')
  const info = await stat(dir).catch(() => undefined)
  if (!info?.isDirectory())
    throw new UsageError(`--cwd ${dir} is not a folder; pass an existing project folder.`)
  return dir
}
