import { EXIT } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import type { ExecWriter } from './writer.js'

/**
 * `--output-format text`: the assistant's text streams to stdout as it arrives; tool calls,
 * denials, notices and errors go to stderr, so `z-engine exec … > answer.txt` holds only the answer.
 */
export function textWriter(io: CommandIo): ExecWriter {
  const titles = new Map<string, string>()
  const inputs = new Map<string, Record<string, unknown>>()
  const printedErrors = new Set<string>()
  const asked = new Set<string>()
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
        case 'messageRecorded':
          if (event.message.role === 'assistant')
            for (const block of event.message.content)
              if (block.type === 'tool_use') inputs.set(block.id, block.input as Record<string, unknown>)
          break
        case 'toolStarted':
          titles.set(event.toolUseId, event.title)
          err(`▸ ${event.toolName}: ${event.title}`)
          break
        case 'toolFinished':
          if (event.status === 'ok' || event.status === 'cancelled') break
          // A denied ask was already said when it was asked.
          if (event.status === 'denied' && asked.has(event.toolUseId)) break
          // Which call (tool and its path or command) and why, on one line.
          err(
            `✗ ${event.toolName}${callSubject(event.toolName, titles.get(event.toolUseId), inputs.get(event.toolUseId))} ${event.status === 'denied' ? 'denied' : 'failed'}: ${reasonOf(event.output, event.summary)}`,
          )
          break
        case 'approvalRequested':
          asked.add(event.request.toolUseId)
          err(
            `✗ ${event.request.title} — denied: no one to ask in headless mode (use --permission-mode or an allow rule)`,
          )
          break
        case 'notice':
          if (event.level === 'error') printedErrors.add(event.message)
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
      // An error already printed as a notice is not printed again.
      const once = (message: string) => {
        if (!printedErrors.has(message)) err(`error: ${message}`)
      }
      if (summary.error) once(summary.error.message)
      else if (outcome?.type === 'failed') once(outcome.error.message)
      else if (outcome?.type === 'budgetExhausted') err(`error: budget exhausted (${outcome.budget})`)
      else if (outcome?.type === 'incomplete') err(`error: incomplete answer: ${outcome.message}`)
      else if (outcome?.type === 'interrupted' || outcome?.type === 'cancelled') err(`(${outcome.type})`)
      else if (summary.exitCode === EXIT.denied)
        err(
          `error: nothing was changed: every change this run tried was denied (${summary.denials?.length ?? 0} call(s)); rerun with --permission-mode acceptEdits or an allow rule`,
        )
    },
  }
}

/** " <path or command>" for a failed call: the title it ran under, else the path in its input. */
function callSubject(
  toolName: string,
  title: string | undefined,
  input: Record<string, unknown> | undefined,
): string {
  const field = input?.file_path ?? input?.path ?? input?.notebook_path ?? input?.command ?? input?.pattern
  const subject = title?.startsWith(`${toolName} `)
    ? title.slice(toolName.length + 1)
    : (title ?? (typeof field === 'string' ? field : undefined))
  if (subject === undefined || subject === '') return ''
  const line = subject.split('\n')[0] ?? ''
  return ` ${line.length > 120 ? `${line.slice(0, 119)}…` : line}`
}

/** The first line of what the model was told, without the "Error: " lead. */
function reasonOf(output: string | undefined, summary: string | undefined): string {
  const text = (output ?? summary ?? '').replace(/^(Error|Permission denied): /, '').trim()
  const line = text.split('\n')[0] ?? ''
  if (line === '') return 'no reason given'
  return line.length > 200 ? `${line.slice(0, 199)}…` : line
}
