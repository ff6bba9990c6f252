import { open } from 'node:fs/promises'
import type { LogRecordType } from '@z-engine/protocol'
import { PRIVATE_FILE_MODE } from './file-modes.js'

/** When an appender calls fsync. */
export type SyncPolicy =
  /** After records that open or close a turn (default): a crash loses at most the running turn's tail. */
  | 'turn'
  /** After every record: slowest, loses nothing that `append` resolved. */
  | 'always'
  /** Only on `sync()` and `close()`. */
  | 'never'

/** Record types that mark a turn boundary (fsync points under the `turn` policy). */
const TURN_BOUNDARY_TYPES = new Set<string>([
  'header',
  'turnStarted',
  'turnFinished',
  'rewound',
  'checkpointCreated',
] satisfies LogRecordType[])

/**
 * Appends JSON lines to one file. Each record is serialized first and written with a single
 * `write` on an `O_APPEND` handle, and writes are chained, so concurrent callers (several agents)
 * never interleave bytes. Opening repairs a torn tail left by a crash by ending it with a newline,
 * so the next record starts on its own line and the torn one is reported by the reader.
 */
export class JsonlAppender {
  private queue: Promise<unknown> = Promise.resolve()
  private dirty = false
  private closed = false
  /** Bytes in the file: where the next record starts, and where a failed write is cut back to. */
  private size: number
  /** Set by the first failed write: later appends are refused, so no record follows a gap. */
  private failure: Error | undefined

  private constructor(
    private readonly handle: Awaited<ReturnType<typeof open>>,
    private readonly policy: SyncPolicy,
    private readonly initialSize: number,
    private readonly path: string,
  ) {
    this.size = initialSize
  }

  /** Whether the file held anything when it was opened. */
  hadContent(): boolean {
    return this.initialSize > 0
  }

  /** Opens (creating if needed) a JSONL file for appending. */
  static async open(path: string, policy: SyncPolicy): Promise<JsonlAppender> {
    const handle = await open(path, 'a+', PRIVATE_FILE_MODE)
    const { size } = await handle.stat()
    const appender = new JsonlAppender(handle, policy, size, path)
    if (size > 0) {
      const last = Buffer.alloc(1)
      await handle.read(last, 0, 1, size - 1)
      if (last[0] !== 0x0a) await appender.writeAll(Buffer.from('\n'))
    }
    return appender
  }

  /** Appends one record as one line; resolves once the bytes are written (and synced, per policy). */
  append(record: { type: string }): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the session log is closed; open it again to append'))
    if (this.failure) return Promise.reject(this.failure)
    // Serialize before queueing, so a record mutated by the caller afterwards is written as it was.
    const line = Buffer.from(`${JSON.stringify(record)}\n`)
    const mustSync =
      this.policy === 'always' || (this.policy === 'turn' && TURN_BOUNDARY_TYPES.has(record.type))
    return this.enqueue(async () => {
      await this.writeAll(line)
      this.dirty = true
      if (mustSync) await this.flush()
    })
  }

  /** Appends an already serialized record (one JSON object, no newline); used when copying logs. */
  appendLine(json: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the session log is closed; open it again to append'))
    if (this.failure) return Promise.reject(this.failure)
    const line = Buffer.from(`${json}\n`)
    return this.enqueue(async () => {
      await this.writeAll(line)
      this.dirty = true
    })
  }

  /** Flushes written records to disk. */
  sync(): Promise<void> {
    return this.enqueue(() => this.flush())
  }

  /** Syncs and closes; later appends fail. */
  close(): Promise<void> {
    if (this.closed) return this.queue.then(() => undefined)
    this.closed = true
    return this.enqueue(async () => {
      await this.flush()
      await this.handle.close()
    })
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.queue.then(work)
    // A failed write must not wedge later ones; the caller of the failed one gets its error.
    this.queue = next.catch(() => undefined)
    return next
  }

  private async flush(): Promise<void> {
    if (!this.dirty) return
    this.dirty = false
    await this.handle.datasync()
  }

  /**
   * Writes one whole line or nothing: when a write fails part-way (a full disk), the file is cut
   * back to where the line started, so the journal never holds a torn record, and the appender
   * refuses later records (a gap in the middle of a session would replay as a different history).
   */
  private async writeAll(bytes: Buffer): Promise<void> {
    if (this.failure) throw this.failure
    const start = this.size
    let offset = 0
    try {
      // One write in practice; the loop only matters for short writes (e.g. a nearly full disk).
      while (offset < bytes.length) {
        const { bytesWritten } = await this.handle.write(bytes, offset, bytes.length - offset, null)
        offset += bytesWritten
      }
      this.size = start + bytes.length
    } catch (error) {
      await this.handle.truncate(start).catch(() => {})
      this.failure = new Error(writeFailure(this.path, error))
      throw this.failure
    }
  }
}

/** What a failed journal write tells the user: a full disk and an unwritable file say so. */
function writeFailure(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return `the session log ${path} could not be written: the disk is full; free space, then resume the session`
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
    return `the session log ${path} could not be written: it is not writable (${code}); fix its permissions, then resume the session`
  return `the session log ${path} could not be written: ${error instanceof Error ? error.message : String(error)}`
}
