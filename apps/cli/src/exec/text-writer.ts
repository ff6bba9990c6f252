import type { CommandIo } from '../command.js'
import type { ExecWriter } from './writer.js'

/**
 * `--output-format text`: the assistant's text streams to stdout as it arrives; tool calls,
 * denials, notices and errors go to stderr, so `z-engine exec … > answer.txt` holds only the answer.
 */
export function textWriter(io: CommandIo): ExecWriter {
  let atLineStart = true
  let wroteText = false
  const out = (text: string) => {
    if (text === '') return
    io.stdout.write(text)
    atLineStart = text.endsWith('\n')
    wroteText = true
  }
  const err = (line: string) => io.stderr.write(`${line}\n`)
  return {
    event(envelope) {
      if (envelope.agentId !== undefined) return
      const event = envelope.event
      switch (event.type) {
        case 'textStart':
          // Separate text parts (before and after tool calls) by a blank line.
          if (wroteText) out(atLineStart ? '\n' : '\n\n')
          break
        case 'textDelta':
          out(event.delta)
          break
        case 'toolStarted':
          err(`▸ ${event.toolName}: ${event.title}`)
          break
        case 'toolFinished':
          if (event.status !== 'ok')
            err(`  ${event.toolName} ${event.status}${event.summary ? `: ${event.summary}` : ''}`)
          break
        case 'approvalRequested':
          err(
            `✗ ${event.request.title} — denied: no one to ask in headless mode (use --permission-mode or an allow rule)`,
          )
          break
        case 'notice':
          err(`${event.level}: ${event.message}`)
          break
        case 'retrying':
          err(`warning: model request failed (${event.reason}); retrying in ${event.delayMs} ms`)
          break
        case 'trustRequired':
          err(
            `warning: this project's ${event.categories.join(', ')} settings are withheld until you trust it (z-engine trust)`,
          )
          break
        default:
          break
      }
    },
    end(summary) {
      if (wroteText && !atLineStart) io.stdout.write('\n')
      const outcome = summary.finished?.outcome
      if (summary.error) err(`error: ${summary.error.message}`)
      else if (outcome?.type === 'failed') err(`error: ${outcome.error.message}`)
      else if (outcome?.type === 'budgetExhausted') err(`error: budget exhausted (${outcome.budget})`)
      else if (outcome?.type === 'interrupted' || outcome?.type === 'cancelled') err(`(${outcome.type})`)
    },
  }
}
