import { execFile } from 'node:child_process'
import { constants } from 'node:fs'
import { access, mkdir, rm, writeFile } from 'node:fs/promises'
import { delimiter, isAbsolute, join } from 'node:path'

/**
 * Where an executable is in PATH's absolute folders, or undefined. A relative entry (`.`) would be
 * the current folder's (a project's own `./git`), which `doctor` would then run (issue 34).
 */
export async function which(name: string, path: string | undefined): Promise<string | undefined> {
  for (const folder of (path ?? '').split(delimiter)) {
    if (!isAbsolute(folder)) continue
    const candidate = join(folder, name)
    try {
      await access(candidate, constants.X_OK)
      return candidate
    } catch {
      // not in this folder
    }
  }
  return undefined
}

/** The first line a program prints for `args` (its version), or undefined when it fails. */
export function firstLine(
  file: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, [...args], { env, timeout: 5_000 }, (error, stdout, stderr) => {
      const text = `${String(stdout)}\n${String(stderr)}`.trim().split('\n')[0]?.trim()
      resolve(error && !text ? undefined : text || undefined)
    })
  })
}

/** Whether a folder exists (or can be created) and takes a file; a string says why not. */
export async function writable(folder: string): Promise<true | string> {
  try {
    await mkdir(folder, { recursive: true })
    const probe = join(folder, `.doctor-${process.pid}`)
    await writeFile(probe, 'ok')
    await rm(probe)
    return true
  } catch (error) {
    return (error as Error).message
  }
}
