import type { LogRecord } from '@z-engine/protocol'
import type { SessionMeta } from './meta.js'
import type { StoreResult } from './result.js'
import type { ReplayResult } from './snapshot.js'

/** An open session log: where the engine journals records before publishing their events. */
export interface SessionLog {
  readonly sessionId: string
  /**
   * Appends one record to `log.jsonl`. Appends are serialized (concurrent callers never interleave)
   * and resolve once written; rejects only on an I/O failure (e.g. a full disk).
   */
  append(record: LogRecord): Promise<void>
  /** Appends one record to `agents/<agentId>.jsonl`, creating it with a header on first use. */
  appendAgent(agentId: string, record: LogRecord): Promise<void>
  /** Flushes everything appended so far to disk. */
  sync(): Promise<void>
  /** Syncs, records the last activity in meta.json, and closes; later appends reject. */
  close(): Promise<void>
}

/** What `create` needs. */
export interface CreateSessionOptions {
  projectRoot: string
  /** Defaults to a random UUID. */
  sessionId?: string
  engineVersion?: string
}

/** One row of `list`. */
export interface SessionSummary {
  sessionId: string
  projectRoot: string
  title?: string
  createdAt: string
  /** ISO 8601 time of the last write to the log. */
  lastActivity: string
  /** Bytes in `log.jsonl`. */
  sizeBytes: number
  parent?: { sessionId: string; uptoRecordId: string }
}

/** What `fork` needs. */
export interface ForkOptions {
  /** The last record the new session keeps (inclusive). */
  uptoRecordId: string
  /** Defaults to a random UUID. */
  newSessionId?: string
}

/**
 * A session store backend. The file backend is {@link openStore}; any other backend must pass
 * `runStoreConformance`. Expected failures are values (`StoreResult`), never throws.
 */
export interface SessionStore {
  /** Creates a session (header record + meta) and returns its open log. */
  create(options: CreateSessionOptions): Promise<StoreResult<SessionLog>>
  /** Opens an existing session for appending (resume). */
  open(sessionId: string): Promise<StoreResult<SessionLog>>
  /** Replays `log.jsonl` into a snapshot plus the problems found. */
  replay(sessionId: string): Promise<StoreResult<ReplayResult>>
  /** Replays one subagent's transcript (`agents/<agentId>.jsonl`). */
  replayAgent(sessionId: string, agentId: string): Promise<StoreResult<ReplayResult>>
  /** Sessions, most recent activity first; only those of `projectRoot` when given. */
  list(filter?: { projectRoot?: string }): Promise<SessionSummary[]>
  /** A new session holding the log up to a record, with a parent link. Returns the new id. */
  fork(sessionId: string, options: ForkOptions): Promise<StoreResult<string>>
  /** Removes a session and everything in it. */
  delete(sessionId: string): Promise<StoreResult<void>>
  /** Stores content under its hash; returns the artifact's path. */
  writeArtifact(
    sessionId: string,
    content: string | Uint8Array,
    extension?: string,
  ): Promise<StoreResult<string>>
  /** Reads `meta.json`. */
  readMeta(sessionId: string): Promise<StoreResult<SessionMeta>>
  /** Changes `meta.json` (atomically); `sessionId`, `projectRoot`, `createdAt` cannot change. */
  updateMeta(
    sessionId: string,
    patch: Partial<Pick<SessionMeta, 'title' | 'model' | 'mode'>>,
  ): Promise<StoreResult<SessionMeta>>
}
