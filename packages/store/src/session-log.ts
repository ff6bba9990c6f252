import { LOG_FORMAT_VERSION, type LogRecord } from '@z-engine/protocol'
import { JsonlAppender, type SyncPolicy } from './appender.js'
import { syncDirectory } from './atomic-write.js'
import { PRIVATE_DIR_MODE } from './file-modes.js'
import { makeDirectories } from './make-directories.js'
import type { SessionMeta } from './meta.js'
import { agentLogPath, checkSessionId, type SessionPaths } from './paths.js'
import type { SessionLog } from './session-store.js'

/** What the file log needs from its store. */
export interface FileSessionLogContext {
  paths: SessionPaths
  sessionId: string
  projectRoot: string
  sync: SyncPolicy
  now: () => Date
  newId: () => string
  /**
   * Applies meta changes (title/model/mode from records, last activity on close), in call order:
   * the store serializes them per session and lets its reads of meta wait for them.
   */
  updateMeta: (patch: Partial<SessionMeta>) => Promise<void>
}

/** The file backend's {@link SessionLog}: `log.jsonl` plus lazily opened agent logs. */
export class FileSessionLog implements SessionLog {
  private readonly agents = new Map<string, Promise<JsonlAppender>>()
  private metaQueue: Promise<void> = Promise.resolve()

  constructor(
    private readonly context: FileSessionLogContext,
    private readonly main: JsonlAppender,
  ) {}

  get sessionId(): string {
    return this.context.sessionId
  }

  async append(record: LogRecord): Promise<void> {
    await this.main.append(record)
    // meta.json mirrors what `list` shows, so listing never has to replay logs. The record is the
    // truth and is written: the mirror follows without holding the caller (a session's start
    // journals mode, model and title before its first request, issue 40); the store's own reads
    // of meta wait for it, changes queued meanwhile go out in one write, and close waits for all.
    switch (record.type) {
      case 'titleChanged':
        return this.mirror({ title: record.title })
      case 'modelChanged':
        return this.mirror({ model: record.model })
      case 'modeChanged':
        return this.mirror({ mode: record.mode })
      default:
        return
    }
  }

  async appendAgent(agentId: string, record: LogRecord): Promise<void> {
    const invalid = checkSessionId(agentId)
    if (invalid !== undefined) throw new Error(invalid)
    let appender = this.agents.get(agentId)
    if (appender === undefined) {
      appender = this.openAgent(agentId)
      this.agents.set(agentId, appender)
    }
    await (await appender).append(record)
  }

  async sync(): Promise<void> {
    await Promise.all([
      this.main.sync(),
      ...[...this.agents.values()].map(async (agent) => (await agent).sync()),
    ])
  }

  async close(): Promise<void> {
    await Promise.all([
      this.main.close(),
      ...[...this.agents.values()].map(async (agent) => (await agent).close()),
    ])
    await this.queueMeta({})
  }

  private queueMeta(patch: Partial<SessionMeta>): Promise<void> {
    const write = this.context.updateMeta({ ...patch, updatedAt: this.context.now().toISOString() })
    const queue = Promise.all([this.metaQueue.catch(() => undefined), write]).then(() => undefined)
    // Handled here so a failed mirror is never an unhandled rejection; close still awaits (and sees) it.
    queue.catch(() => undefined)
    this.metaQueue = queue
    return write
  }

  /** Queues a mirror update without waiting for it; a failure surfaces at close, which rewrites meta. */
  private mirror(patch: Partial<SessionMeta>): void {
    this.queueMeta(patch).catch(() => undefined)
  }

  private async openAgent(agentId: string): Promise<JsonlAppender> {
    await makeDirectories(this.context.paths.agentsDir, PRIVATE_DIR_MODE)
    const path = agentLogPath(this.context.paths, agentId)
    const appender = await JsonlAppender.open(path, this.context.sync)
    if (!appender.hadContent()) {
      const header: LogRecord = {
        type: 'header',
        id: this.context.newId(),
        at: this.context.now().toISOString(),
        formatVersion: LOG_FORMAT_VERSION,
        sessionId: this.context.sessionId,
        projectRoot: this.context.projectRoot,
        createdAt: this.context.now().toISOString(),
        agentId,
      }
      await appender.append(header)
      await syncDirectory(this.context.paths.agentsDir)
    }
    return appender
  }
}
