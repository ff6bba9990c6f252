import type { CommandIo } from '../command.js'
import { createStreamJsonMapper } from './stream-json-map.js'
import type { StreamJsonEvent } from './stream-json-types.js'
import type { ExecWriter } from './writer.js'

/** `--output-format stream-json`: one line per mapped event, then `run_end`. */
export function streamJsonWriter(io: CommandIo): ExecWriter {
  const map = createStreamJsonMapper()
  const write = (line: StreamJsonEvent) => io.stdout.write(`${JSON.stringify(line)}\n`)
  return {
    event(envelope) {
      for (const line of map(envelope)) write(line)
    },
    end(summary) {
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
