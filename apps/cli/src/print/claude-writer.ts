import { randomUUID } from 'node:crypto'
import type { Session } from '@z-engine/engine'
import {
  MessageTranslator,
  type SDKMessage,
  type SDKResultMessage,
  sdkInitMessage,
  sdkUsage,
} from '@z-engine/engine/claude-messages'
import type { CommandIo } from '../command.js'
import { createStreamJsonMapper, streamOutcome, streamVerification } from '../exec/stream-json-map.js'
import type { ExecWriter } from '../exec/writer.js'

/** What `-p` prints, in Claude Code's shapes. */
export interface ClaudeWriterOptions {
  format: 'text' | 'json' | 'stream-json'
  /** json: the array of every message instead of the result alone (Claude Code's `--verbose`). */
  verbose: boolean
  includePartialMessages: boolean
  env: NodeJS.ProcessEnv
  /** `--permission-mode` as the user spelled it (dontAsk stays dontAsk on the init line). */
  permissionMode?: string
}

/** Our additions to Claude Code's result: one key a Claude Code parser does not read. */
export interface ZEngineResultExtras {
  /** The process's exit code for this turn (4: every change it tried was denied). */
  exit_code: number
  outcome: string
  verification?: ReturnType<typeof streamVerification>
  warnings: string[]
  errors: string[]
}

/**
 * `z-engine -p` as `claude -p` prints: stream-json opens with the `system`/`init` line, then the
 * `assistant` and `user` messages (and `stream_event` lines with `--include-partial-messages`), and a
 * `result` line per turn; json prints the result (with `--verbose`, every message as one array);
 * text prints the result's text. The messages are the Claude Agent SDK adapter's own
 * (`MessageTranslator`, `sdkInitMessage`): one mapping for both. What the engine adds (the exit
 * code, the verification badge, warnings) rides on the result under `z_engine`.
 */
export function claudeWriter(io: CommandIo, options: ClaudeWriterOptions): ExecWriter {
  const all: SDKMessage[] = []
  const notes = createStreamJsonMapper()
  let warnings: string[] = []
  let errors: string[] = []
  let translator: MessageTranslator | undefined
  let session: Session | undefined
  let last: SDKResultMessage | undefined
  // Claude Code numbers the results a process writes; nothing is queued while a headless turn runs.
  let resultIndex = 0
  const emit = (message: SDKMessage) => {
    if (options.format === 'stream-json') io.stdout.write(`${JSON.stringify(message)}\n`)
    else if (options.format === 'json' && options.verbose) all.push(message)
  }
  const newTranslator = (opened: Session) =>
    new MessageTranslator({
      sessionId: opened.id,
      model: opened.model,
      includePartialMessages: options.includePartialMessages,
    })
  return {
    async open(opened) {
      session = opened
      translator = newTranslator(opened)
      const mode = options.permissionMode
      emit(
        await sdkInitMessage(opened, {
          env: options.env,
          ...(mode === 'default' || mode === 'acceptEdits' || mode === 'plan' || mode === 'bypassPermissions'
            ? { permissionMode: mode }
            : {}),
        }),
      )
    },
    event(envelope) {
      for (const line of notes(envelope)) {
        if (line.type === 'warning' || line.type === 'info') warnings.push(line.message)
        else if (line.type === 'error') errors.push(line.message)
      }
      // The result waits for the turn's exit code (turnEnd).
      for (const message of translator?.translate(envelope) ?? [])
        if (message.type !== 'result') emit(message)
    },
    turnEnd(finished, exitCode) {
      if (!translator || !session) return
      const result = translator.result(finished)
      const extras: ZEngineResultExtras = {
        exit_code: exitCode,
        outcome: streamOutcome(finished.outcome),
        verification: streamVerification(finished.badge),
        warnings,
        errors,
      }
      // A turn that did not do its job (every change denied) is an error though its subtype is
      // success, as Claude Code marks a success whose result is not to be trusted.
      last = {
        ...result,
        is_error: result.is_error || exitCode !== 0,
        queued_turn_count: 0,
        result_index: resultIndex++,
        z_engine: extras,
      } as SDKResultMessage
      emit(last)
      warnings = []
      errors = []
      translator = newTranslator(session)
    },
    end(summary) {
      if (summary.error) {
        // The run failed outside a turn (bad option, unknown session, missing key, bad input line):
        // a zeroed error result, as Claude Code writes on a startup failure.
        errors.push(summary.error.message)
        last = {
          type: 'result',
          subtype: 'error_during_execution',
          uuid: randomUUID(),
          session_id: summary.sessionId,
          duration_ms: summary.durationMs,
          duration_api_ms: 0,
          is_error: true,
          num_turns: 0,
          result: '',
          stop_reason: null,
          total_cost_usd: 0,
          usage: sdkUsage({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }),
          modelUsage: {},
          permission_denials: [],
          errors: [summary.error.message],
          terminal_reason: 'turn_setup_failed',
          api_error_status: null,
          queued_turn_count: 0,
          result_index: resultIndex++,
          z_engine: {
            exit_code: summary.exitCode,
            outcome: 'failed',
            warnings,
            errors,
            error_code: summary.error.code,
          },
        } as SDKResultMessage
        emit(last)
        io.stderr.write(`z-engine: ${summary.error.message}\n`)
      }
      if (options.format === 'json') {
        const output = options.verbose ? all : last
        if (output !== undefined) io.stdout.write(`${JSON.stringify(output)}\n`)
      } else if (options.format === 'text' && last !== undefined && !summary.error) {
        io.stdout.write(`${last.subtype === 'success' ? last.result : (last.errors ?? []).join('\n')}\n`)
        // stdout stays Claude Code's (the result alone); stderr says why the exit code is not 0.
        const denied = last.permission_denials ?? []
        if (denied.length > 0) io.stderr.write(`${deniedLine(denied)}\n`)
      }
    },
  }
}

/** The stderr line of a text-mode run whose calls were denied: which, and how to allow them. */
function deniedLine(
  denied: ReadonlyArray<{ tool_name: string; tool_input: Record<string, unknown> }>,
): string {
  const subjects = denied.map((call) => {
    const input = call.tool_input
    const subject = [input.file_path, input.command, input.url, input.pattern].find(
      (value): value is string => typeof value === 'string' && value !== '',
    )
    return subject === undefined ? call.tool_name : `${call.tool_name} ${subject}`
  })
  const count = `${denied.length} tool call${denied.length === 1 ? '' : 's'}`
  return `z-engine: ${count} denied (${subjects.join(', ')}): no one can approve in -p; allow with --permission-mode acceptEdits, --allowedTools or an allow rule`
}
