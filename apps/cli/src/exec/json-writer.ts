import type { CommandIo } from '../command.js'
import { createStreamJsonMapper, snakeUsage, streamOutcome, streamVerification } from './stream-json-map.js'
import type { ExecWriter } from './writer.js'

/**
 * `--output-format json`: nothing while the turn runs, then one object with the result text, the
 * session id, usage (cache reads and writes included), cost and what the prompt cache saved, and the
 * outcome (the fields a script reads), the denied calls (`permission_denials`, Claude Code's field),
 * plus warnings and errors seen.
 */
export function jsonWriter(io: CommandIo): ExecWriter {
  const map = createStreamJsonMapper()
  let result = ''
  const warnings: string[] = []
  const errors: string[] = []
  let toolCalls = 0
  return {
    event(envelope) {
      for (const line of map(envelope)) {
        if (line.type === 'final') result = line.result
        // The JSON result's `warnings` keeps every notice short of an error, as it always has.
        else if (line.type === 'warning' || line.type === 'info') warnings.push(line.message)
        else if (line.type === 'error') errors.push(line.message)
        else if (line.type === 'tool_result') toolCalls++
      }
    },
    end(summary) {
      const finished = summary.finished
      const error =
        summary.error ?? (finished?.outcome.type === 'failed' ? finished.outcome.error : undefined)
      const output = {
        type: 'result',
        session_id: summary.sessionId,
        outcome: finished ? streamOutcome(finished.outcome) : 'failed',
        is_error: summary.exitCode !== 0,
        result,
        ...(finished ? { turn_id: finished.turnId } : {}),
        usage: finished
          ? snakeUsage(finished.usage)
          : { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 },
        cost_usd: finished?.cost.totalUsd ?? 0,
        // What prompt caching saved this turn, priced from the catalog (negative while cache
        // writes cost more than reads saved).
        cache_savings_usd: finished?.cost.cacheSavingsUsd ?? 0,
        ...(finished ? { verification: streamVerification(finished.badge) } : {}),
        tool_calls: toolCalls,
        permission_denials: summary.denials ?? [],
        ...(finished?.outcome.type === 'budgetExhausted' ? { budget: finished.outcome.budget } : {}),
        ...(finished?.outcome.type === 'incomplete'
          ? { incomplete: { reason: finished.outcome.reason, message: finished.outcome.message } }
          : {}),
        ...(error ? { error } : {}),
        warnings,
        // The run's error is in `error`; `errors` holds the others (never the same one twice).
        errors: errors.filter((message) => message !== error?.message),
        exit_code: summary.exitCode,
        duration_ms: summary.durationMs,
      }
      io.stdout.write(`${JSON.stringify(output, null, 2)}\n`)
    },
  }
}
