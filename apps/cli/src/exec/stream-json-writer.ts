import type { CommandIo } from '../command.js'
import { createStreamJsonMapper } from './stream-json-map.js'
import type { StreamJsonEvent } from './stream-json-types.js'
import type { ExecWriter } from './writer.js'

/**
 * `--output-format stream-json`: one line per mapped event, then `run_end`. A turn's `final` line
 * (with its `error` line) waits for `turnEnd`, which the run sends once the turn's checkpoint work
 * is done: every line of a turn comes before its `final`, as Claude Code's `result` ends a turn.
 */
export function streamJsonWriter(io: CommandIo): ExecWriter {
  const map = createStreamJsonMapper()
  const write = (line: StreamJsonEvent) => io.stdout.write(`${JSON.stringify(line)}\n`)
  let held: StreamJsonEvent[] = []
  const flush = () => {
    for (const line of held) write(line)
    held = []
  }
  return {
    event(envelope) {
      const lines = map(envelope)
      if (envelope.event.type === 'turnFinished' && envelope.agentId === undefined) held.push(...lines)
      else for (const line of lines) write(line)
    },
    turnEnd: flush,
    end(summary) {
      flush()
      if (summary.error) write({ type: 'error', session_id: summary.sessionId, ...summary.error })
      write({
        type: 'run_end',
        session_id: summary.sessionId,
        exit_code: summary.exitCode,
        duration_ms: summary.durationMs,
      })
    },
  }
}
