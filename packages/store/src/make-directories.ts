import { mkdir, stat } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * Creates a folder and its missing parents, one level at a time. Node 20's
 * `mkdir(…, { recursive: true })` never returns when the file system refuses a new entry with
 * ENOENT although the parent exists (a data folder under `/proc`): libuv retries the parent
 * forever and pins a core. Here that case is an error naming the folder that refused.
 */
export async function makeDirectories(path: string, mode: number): Promise<void> {
  try {
    await mkdir(path, { mode })
    return
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') {
      if ((await stat(path)).isDirectory()) return
      throw error
    }
    if (code !== 'ENOENT') throw error
  }
  const parent = dirname(path)
  if (parent === path) throw new Error(`cannot create ${path}: the root folder is missing`)
  await makeDirectories(parent, mode)
  try {
    await mkdir(path, { mode })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST' && (await stat(path)).isDirectory()) return
    if (code === 'ENOENT') {
      throw Object.assign(
        new Error(`${parent} does not accept new folders (is it a virtual file system such as /proc?)`),
        { code: 'ENOENT', path },
      )
    }
    throw error
  }
}
