import { createHash } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from './atomic-write.js'
import { PRIVATE_DIR_MODE } from './file-modes.js'
import { makeDirectories } from './make-directories.js'

// Extensions become part of a file name, so only short plain ones are kept.
const SAFE_EXTENSION = /^[a-z0-9]{1,10}$/

/**
 * Stores content under its SHA-256 (`artifacts/<sha256>[.ext]`), so equal content is stored once
 * and a name always means the same bytes. Returns the absolute path.
 */
export async function writeArtifactFile(
  artifactsDir: string,
  content: string | Uint8Array,
  extension?: string,
): Promise<string> {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content
  const digest = createHash('sha256').update(bytes).digest('hex')
  const suffix = extension !== undefined && SAFE_EXTENSION.test(extension) ? `.${extension}` : ''
  const path = join(artifactsDir, `${digest}${suffix}`)
  if (await exists(path)) return path
  await makeDirectories(artifactsDir, PRIVATE_DIR_MODE)
  await writeFileAtomic(path, bytes)
  return path
}

// The store may import only protocol (DESIGN.md's table), so @z-engine/host's pathExists is out of reach.
async function exists(path: string): Promise<boolean> {
  try {
    await stat(path)
    return true
  } catch {
    return false
  }
}
