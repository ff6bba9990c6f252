import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import type { FileSnapshot, FileTracker } from './ctx.js'

/** The sha256 of some bytes, hex. */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** A snapshot of bytes just read or written at `path`. */
export async function snapshotOf(path: string, bytes: Uint8Array, partial = false): Promise<FileSnapshot> {
  const info = await stat(path)
  return { mtimeMs: info.mtimeMs, size: info.size, hash: hashBytes(bytes), partial }
}

/** Why a write must not go ahead, or undefined when the model's view of the file is current. */
export type StaleCheck = { type: 'fresh'; bytes: Buffer } | { type: 'notRead' } | { type: 'changed' }

/**
 * Compares a file on disk with what the model last read. A changed mtime alone is not enough to
 * refuse (editors and `touch` rewrite it); the content hash decides.
 */
export async function checkFresh(path: string, tracker: FileTracker, readFrom = path): Promise<StaleCheck> {
  const last = tracker.lastRead(path)
  if (!last) return { type: 'notRead' }
  const bytes = await readFile(readFrom)
  if (bytes.length === last.size && hashBytes(bytes) === last.hash) return { type: 'fresh', bytes }
  return { type: 'changed' }
}

/** The message for a write to a file the model has not read. */
export function notReadMessage(path: string): string {
  return `File has not been read yet: ${path}. Read it first with the Read tool, then retry the change.`
}

/** The message for a write to a file that changed since the model read it. */
export function changedMessage(path: string): string {
  return `File has been modified since it was last read (by the user, a formatter or another process): ${path}. Read it again with the Read tool and redo the change against its current content.`
}
