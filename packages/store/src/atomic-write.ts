import { randomBytes } from 'node:crypto'
import { open, rename, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { PRIVATE_FILE_MODE } from './file-modes.js'

/**
 * Writes a file so readers see either the old or the new content, never a mix: write a temp file
 * in the same directory, fsync it, rename it over the target, then fsync the directory so the
 * rename itself survives a power cut. The file is private to the user (0600).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path)
  const temp = join(dir, `.${randomBytes(6).toString('hex')}.tmp`)
  const handle = await open(temp, 'wx', PRIVATE_FILE_MODE)
  try {
    await handle.writeFile(data)
    await handle.sync()
  } catch (error) {
    await handle.close()
    await rm(temp, { force: true })
    throw error
  }
  await handle.close()
  try {
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
  await syncDirectory(dir)
}

/** Flushes a directory's entries (new or renamed files) to disk; a no-op where that is unsupported. */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined
  try {
    handle = await open(dir, 'r')
    await handle.sync()
  } catch {
    // Some filesystems refuse fsync on directories (EINVAL/EISDIR); the data itself is synced.
  } finally {
    await handle?.close()
  }
}
