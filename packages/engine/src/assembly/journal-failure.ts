import type { LogRecord } from '@z-engine/protocol'
import type { SessionLog } from '@z-engine/store'

/**
 * What a session does when its journal cannot be written (a full disk, a data dir that became
 * read-only): the failing record's caller gets the error, so the running turn stops and no tool
 * runs unjournaled; an error notice says why, once; and the turn's closing `turnFinished` is still
 * published though it cannot be written, so `exec` and clients end the run with a final answer and
 * their end line instead of waiting forever. The store never leaves a torn line behind (the
 * appender cuts a failed write back), so the log replays up to the failure, the turn as interrupted.
 */
export function endTurnsOnJournalFailure(log: SessionLog, onFailure: (message: string) => void): SessionLog {
  let failed: string | undefined
  const guard = async (record: LogRecord, write: () => Promise<void>): Promise<void> => {
    if (failed !== undefined && record.type === 'turnFinished') return
    try {
      await write()
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      if (failed === undefined) {
        failed = message
        onFailure(message)
      }
      if (record.type === 'turnFinished') return
      throw error
    }
  }
  return {
    get sessionId() {
      return log.sessionId
    },
    append: (record) => guard(record, () => log.append(record)),
    appendAgent: (agentId, record) => guard(record, () => log.appendAgent(agentId, record)),
    sync: () => log.sync(),
    close: () => log.close(),
  }
}
