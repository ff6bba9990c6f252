import { randomUUID } from 'node:crypto'
import { accessSync, constants, existsSync } from 'node:fs'
import { readdir, rm, stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { LOG_FORMAT_VERSION, type LogHeader } from '@z-engine/protocol'
import { JsonlAppender, type SyncPolicy } from './appender.js'
import { writeArtifactFile } from './artifacts.js'
import { syncDirectory } from './atomic-write.js'
import { PRIVATE_DIR_MODE } from './file-modes.js'
import { readFirstRecord } from './first-record.js'
import { copyLogUpTo } from './fork.js'
import { makeDirectories } from './make-directories.js'
import { META_FORMAT_VERSION, readMeta, type SessionMeta, writeMeta } from './meta.js'
import { agentLogPath, checkSessionId, type SessionPaths, sessionPaths, sessionsDir } from './paths.js'
import { fileExists, replayLogFile } from './replay.js'
import { failure, type StoreResult, success } from './result.js'
import { FileSessionLog } from './session-log.js'
import type {
  CreateSessionOptions,
  ForkOptions,
  SessionLog,
  SessionStore,
  SessionSummary,
} from './session-store.js'
import type { ReplayResult } from './snapshot.js'

const LIST_BATCH = 64

/** Options of the file store. */
export interface StoreOptions {
  /** The data dir (e.g. `defaultDataDir(...)`); sessions go in its `sessions/` folder. */
  dataDir: string
  /** When to fsync (default `turn`: at turn boundaries). */
  sync?: SyncPolicy
  /** Clock, for tests. */
  now?: () => Date
  /** Record/session id source, for tests. */
  newId?: () => string
}

/** Opens the file session store: one directory per session under `<dataDir>/sessions`. */
export function openStore(options: StoreOptions): SessionStore {
  return new FileSessionStore(options)
}

class FileSessionStore implements SessionStore {
  private readonly dataDir: string
  private readonly sync: SyncPolicy
  private readonly now: () => Date
  private readonly newId: () => string
  // Meta writes of one session are chained so concurrent patches never lose each other.
  private readonly metaQueues = new Map<string, Promise<unknown>>()
  /** Per session, the meta write queued behind another and not started yet (it absorbs new patches). */
  private readonly metaWaiting = new Map<
    string,
    { patch: Partial<SessionMeta>; result: Promise<StoreResult<SessionMeta>> }
  >()

  constructor(options: StoreOptions) {
    this.dataDir = resolve(options.dataDir)
    this.sync = options.sync ?? 'turn'
    this.now = options.now ?? (() => new Date())
    this.newId = options.newId ?? randomUUID
  }

  async create(options: CreateSessionOptions): Promise<StoreResult<SessionLog>> {
    const sessionId = options.sessionId ?? this.newId()
    const paths = this.paths(sessionId)
    if (!paths.ok) return paths
    if (await fileExists(paths.value.log)) {
      return failure(
        'alreadyExists',
        `session ${sessionId} already exists; open it to resume, or pick another id`,
      )
    }
    try {
      return success(await this.createFiles(sessionId, paths.value, options))
    } catch (error) {
      return failure(
        'io',
        ioMessage(`create session ${sessionId}`, paths.value.dir, explainMissing(paths.value.dir, error)),
      )
    }
  }

  private async createFiles(
    sessionId: string,
    paths: SessionPaths,
    options: CreateSessionOptions,
  ): Promise<SessionLog> {
    await makeDirectories(paths.dir, PRIVATE_DIR_MODE)
    const createdAt = this.now().toISOString()
    const projectRoot = resolve(options.projectRoot)
    const meta: SessionMeta = {
      formatVersion: META_FORMAT_VERSION,
      sessionId,
      projectRoot,
      createdAt,
      updatedAt: createdAt,
    }
    await writeMeta(paths.meta, meta)
    const appender = await JsonlAppender.open(paths.log, this.sync)
    const header: LogHeader = {
      type: 'header',
      id: this.newId(),
      at: createdAt,
      formatVersion: LOG_FORMAT_VERSION,
      sessionId,
      projectRoot,
      createdAt,
      ...(options.engineVersion !== undefined ? { engineVersion: options.engineVersion } : {}),
    }
    await appender.append(header)
    // The new directory and log file must survive a power cut too, not only their contents.
    await syncDirectory(paths.dir)
    await syncDirectory(sessionsDir(this.dataDir))
    return this.logFor(sessionId, paths, projectRoot, appender)
  }

  async open(sessionId: string): Promise<StoreResult<SessionLog>> {
    const paths = await this.existing(sessionId)
    if (!paths.ok) return paths
    const meta = await this.readMeta(sessionId)
    const header = await readFirstRecord(paths.value.log)
    // Appending records of today's format to a log a newer z-engine wrote could corrupt it for that
    // version; reading it (replay) stays possible, appending is refused.
    if (header?.type === 'header' && header.formatVersion > LOG_FORMAT_VERSION) {
      return failure(
        'newerFormat',
        `session ${sessionId} was written by a newer z-engine (log format ${header.formatVersion}, this one writes ${LOG_FORMAT_VERSION}); upgrade z-engine to continue it, or fork it to a new session`,
      )
    }
    const projectRoot = meta.ok ? meta.value.projectRoot : header?.type === 'header' ? header.projectRoot : ''
    try {
      const appender = await JsonlAppender.open(paths.value.log, this.sync)
      return success(this.logFor(sessionId, paths.value, projectRoot, appender))
    } catch (error) {
      return failure('io', ioMessage(`open the log of session ${sessionId}`, paths.value.log, error))
    }
  }

  async replay(sessionId: string): Promise<StoreResult<ReplayResult>> {
    const paths = await this.existing(sessionId)
    if (!paths.ok) return paths
    return success(await replayLogFile(paths.value.log, 'log.jsonl'))
  }

  async replayAgent(sessionId: string, agentId: string): Promise<StoreResult<ReplayResult>> {
    const paths = await this.existing(sessionId)
    if (!paths.ok) return paths
    const invalid = checkSessionId(agentId)
    if (invalid !== undefined) return failure('invalidId', invalid)
    const path = agentLogPath(paths.value, agentId)
    if (!(await fileExists(path)))
      return failure('notFound', `agent ${agentId} has no transcript in session ${sessionId}`)
    return success(await replayLogFile(path, `agents/${agentId}.jsonl`))
  }

  async list(filter?: { projectRoot?: string }): Promise<SessionSummary[]> {
    let names: string[]
    try {
      names = await readdir(sessionsDir(this.dataDir))
    } catch {
      return []
    }
    const root = filter?.projectRoot !== undefined ? resolve(filter.projectRoot) : undefined
    const rows: (SessionSummary | undefined)[] = []
    // In batches, so a data dir with thousands of sessions does not exhaust file descriptors.
    for (let start = 0; start < names.length; start += LIST_BATCH) {
      rows.push(
        ...(await Promise.all(names.slice(start, start + LIST_BATCH).map((name) => this.summary(name)))),
      )
    }
    return rows
      .filter(
        (row): row is SessionSummary => row !== undefined && (root === undefined || row.projectRoot === root),
      )
      .sort((a, b) => b.lastActivity.localeCompare(a.lastActivity) || a.sessionId.localeCompare(b.sessionId))
  }

  async fork(sessionId: string, options: ForkOptions): Promise<StoreResult<string>> {
    const source = await this.existing(sessionId)
    if (!source.ok) return source
    const newSessionId = options.newSessionId ?? this.newId()
    const target = this.paths(newSessionId)
    if (!target.ok) return target
    if (await fileExists(target.value.log))
      return failure('alreadyExists', `session ${newSessionId} already exists`)
    const createdAt = this.now().toISOString()
    let projectRoot = ''
    const copy = await copyLogUpTo(
      source.value,
      target.value,
      options.uptoRecordId,
      (original, lastMessageId) => {
        projectRoot = original?.projectRoot ?? ''
        return {
          type: 'header',
          id: this.newId(),
          at: createdAt,
          formatVersion: LOG_FORMAT_VERSION,
          sessionId: newSessionId,
          projectRoot,
          createdAt,
          parent: { sessionId, ...(lastMessageId !== undefined ? { messageId: lastMessageId } : {}) },
        }
      },
    )
    if (!copy.found) {
      return failure(
        'notFound',
        `record ${options.uptoRecordId} is not in session ${sessionId}; pick a record id from its log`,
      )
    }
    await writeMeta(target.value.meta, {
      formatVersion: META_FORMAT_VERSION,
      sessionId: newSessionId,
      projectRoot,
      createdAt,
      updatedAt: createdAt,
      ...(copy.title !== undefined ? { title: copy.title } : {}),
      parent: { sessionId, uptoRecordId: options.uptoRecordId },
    })
    return success(newSessionId)
  }

  async delete(sessionId: string): Promise<StoreResult<void>> {
    const paths = await this.existing(sessionId)
    if (!paths.ok) return paths
    await rm(paths.value.dir, { recursive: true, force: true })
    return success(undefined)
  }

  async writeArtifact(
    sessionId: string,
    content: string | Uint8Array,
    extension?: string,
  ): Promise<StoreResult<string>> {
    const paths = await this.existing(sessionId)
    if (!paths.ok) return paths
    return success(await writeArtifactFile(paths.value.artifactsDir, content, extension))
  }

  async readMeta(sessionId: string): Promise<StoreResult<SessionMeta>> {
    const paths = this.paths(sessionId)
    if (!paths.ok) return paths
    // Changes journaled in this process are mirrored by then.
    await this.metaQueues.get(sessionId)
    const read = await readMeta(paths.value.meta)
    return read.ok ? success(read.meta) : failure('notFound', read.error)
  }

  updateMeta(
    sessionId: string,
    patch: Partial<Pick<SessionMeta, 'title' | 'model' | 'mode'>>,
  ): Promise<StoreResult<SessionMeta>> {
    return this.patchMeta(sessionId, { ...patch, updatedAt: this.now().toISOString() })
  }

  private patchMeta(sessionId: string, patch: Partial<SessionMeta>): Promise<StoreResult<SessionMeta>> {
    // A write queued and not yet started takes this patch too: one write for a burst of changes.
    const waiting = this.metaWaiting.get(sessionId)
    if (waiting !== undefined) {
      Object.assign(waiting.patch, patch)
      return waiting.result
    }
    const previous = this.metaQueues.get(sessionId) ?? Promise.resolve()
    const queued: { patch: Partial<SessionMeta>; result: Promise<StoreResult<SessionMeta>> } = {
      patch: { ...patch },
      result: previous.then(async (): Promise<StoreResult<SessionMeta>> => {
        if (this.metaWaiting.get(sessionId) === queued) this.metaWaiting.delete(sessionId)
        const paths = this.paths(sessionId)
        if (!paths.ok) return paths
        const read = await readMeta(paths.value.meta)
        if (!read.ok) return failure('notFound', read.error)
        const { sessionId: _id, projectRoot: _root, createdAt: _created, ...allowed } = queued.patch
        const meta: SessionMeta = { ...read.meta, ...allowed }
        await writeMeta(paths.value.meta, meta)
        return success(meta)
      }),
    }
    this.metaWaiting.set(sessionId, queued)
    this.metaQueues.set(
      sessionId,
      queued.result.catch(() => undefined),
    )
    return queued.result
  }

  private logFor(
    sessionId: string,
    paths: SessionPaths,
    projectRoot: string,
    appender: JsonlAppender,
  ): SessionLog {
    return new FileSessionLog(
      {
        paths,
        sessionId,
        projectRoot,
        sync: this.sync,
        now: this.now,
        newId: this.newId,
        updateMeta: async (patch) => {
          await this.patchMeta(sessionId, patch)
        },
      },
      appender,
    )
  }

  private async summary(sessionId: string): Promise<SessionSummary | undefined> {
    if (checkSessionId(sessionId) !== undefined) return undefined
    const paths = sessionPaths(this.dataDir, sessionId)
    let size: number
    let modified: Date
    try {
      const info = await stat(paths.log)
      size = info.size
      modified = info.mtime
    } catch {
      return undefined
    }
    await this.metaQueues.get(sessionId)
    const meta = await readMeta(paths.meta)
    // A missing or broken meta.json is rebuilt from the log's header: the log is the truth.
    const fallback = meta.ok ? undefined : await readFirstRecord(paths.log)
    const base = meta.ok
      ? meta.meta
      : fallback?.type === 'header'
        ? { projectRoot: fallback.projectRoot, createdAt: fallback.createdAt }
        : undefined
    if (base === undefined) return undefined
    return {
      sessionId,
      projectRoot: base.projectRoot,
      createdAt: base.createdAt,
      lastActivity: modified.toISOString(),
      sizeBytes: size,
      ...(meta.ok && meta.meta.title !== undefined ? { title: meta.meta.title } : {}),
      ...(meta.ok && meta.meta.parent !== undefined ? { parent: meta.meta.parent } : {}),
    }
  }

  private paths(sessionId: string): StoreResult<SessionPaths> {
    const invalid = checkSessionId(sessionId)
    return invalid !== undefined
      ? failure('invalidId', invalid)
      : success(sessionPaths(this.dataDir, sessionId))
  }

  private async existing(sessionId: string): Promise<StoreResult<SessionPaths>> {
    const paths = this.paths(sessionId)
    if (!paths.ok) return paths
    if (!(await fileExists(paths.value.log))) {
      return failure(
        'notFound',
        `no session ${sessionId} in ${sessionsDir(this.dataDir)}; list sessions to find its id`,
      )
    }
    return paths
  }
}

/** A clear message for a failed write: a full disk and an unwritable data dir say so. */
export function ioMessage(action: string, path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return `could not ${action}: the disk holding ${path} is full; free space and retry`
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return `could not ${action}: ${path} is not writable (${code}); fix its permissions or set XDG_DATA_HOME to a writable directory`
    default:
      return `could not ${action} at ${path}: ${error instanceof Error ? error.message : String(error)}`
  }
}

/**
 * Node's recursive `mkdir` reports a read-only or unwritable parent as ENOENT; find the nearest
 * existing ancestor and ask it, so the message names the real cause.
 */
function explainMissing(path: string, error: unknown): unknown {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT') return error
  let dir = path
  while (dirname(dir) !== dir && !existsSync(dir)) dir = dirname(dir)
  try {
    accessSync(dir, constants.W_OK)
    return error
  } catch (access) {
    return access
  }
}
