import { createRedactor, knownSecretsFrom, type Redactor } from '@z-engine/policy'
import type { LogRecord, Settings } from '@z-engine/protocol'
import type { SessionLog } from '@z-engine/store'
import type { Tool, ToolCtx, ToolResult } from '@z-engine/tools'
import { engineCredentialNames } from '../workspace/settings/child-environment.js'

/**
 * The session's redactor: the engine's own credentials (the default variables plus every
 * `api_key_env` settings name) by value, and known token shapes by pattern (spec 004, "Tool
 * Execution Lifecycle": redact before the result reaches the model or the log).
 */
export function sessionRedactor(
  env: Readonly<Record<string, string | undefined>>,
  settings: Settings,
): Redactor {
  return createRedactor({ known: knownSecretsFrom(env, engineCredentialNames(settings)) })
}

/**
 * A tool whose results, errors, progress and spilled artifacts are redacted, and whose output
 * budget sees redacted text only. Wrapping the tool rather than the batch covers the main agent,
 * subagents and PostToolUse hooks alike.
 */
export function redactingTool(tool: Tool, redactor: Redactor): Tool {
  return {
    name: tool.name,
    inputSchema: tool.inputSchema,
    description: () => tool.description(),
    isReadOnly: (input) => tool.isReadOnly(input),
    isConcurrencySafe: (input) => tool.isConcurrencySafe(input),
    action: (input, ctx) => tool.action(input, ctx),
    title: (input, ctx) => tool.title(input, ctx),
    preview: (input, ctx) => tool.preview(input, ctx),
    ...(tool.check !== undefined
      ? {
          check: async (input: Record<string, unknown>, ctx: ToolCtx) => {
            const failure = await tool.check?.(input, ctx)
            return failure === undefined ? undefined : redactor.redact(failure)
          },
        }
      : {}),
    ...(tool.parts !== undefined ? { parts: (input, ctx) => tool.parts?.(input, ctx) } : {}),
    call: async (input, ctx, signal) => {
      const progress = boundedProgress(ctx.progress, redactor)
      const budget = ctx.outputBudget
      try {
        const result = await tool.call(
          input,
          {
            ...ctx,
            progress: progress.push,
            spill: (content, hint) => ctx.spill(redactor.redact(content), hint),
            // Redact, then budget (spec 004): a budget's cut must never leave half a secret that
            // the redactor would no longer recognise after it.
            ...(budget !== undefined
              ? { outputBudget: (text, kind) => budget(redactor.redact(text), kind) }
              : {}),
          },
          signal,
        )
        return redactResult(result, redactor)
      } finally {
        progress.flush()
      }
    },
  }
}

/** Live output kept between two deliveries; older output of a fast producer is not shown live. */
export const LIVE_OUTPUT_WINDOW_CHARS = 16 * 1024
/** How often live progress is delivered (the batch throttles to the same pace). */
const LIVE_INTERVAL_MS = 50

/**
 * Coalesces a tool's progress before it is redacted and delivered: output is kept as a bounded
 * tail (a command printing 1 GB costs at most {@link LIVE_OUTPUT_WINDOW_CHARS} per delivery, in
 * memory and in redaction time), delivered at most every 50 ms, with a note of what was skipped.
 */
function boundedProgress(
  deliver: (update: { message?: string; output?: string }) => void,
  redactor: Redactor,
): { push: (update: { message?: string; output?: string }) => void; flush: () => void } {
  let output = ''
  let skipped = 0
  let message: string | undefined
  let timer: NodeJS.Timeout | undefined
  let last = Number.NEGATIVE_INFINITY
  const flush = (): void => {
    if (timer) clearTimeout(timer)
    timer = undefined
    if (output === '' && message === undefined) return
    const note = skipped > 0 ? `[... ${skipped} characters not shown live ...]\n` : ''
    const update = {
      ...(message !== undefined ? { message: redactor.redact(message) } : {}),
      ...(output !== '' ? { output: redactor.redact(note + output) } : {}),
    }
    output = ''
    skipped = 0
    message = undefined
    last = Date.now()
    deliver(update)
  }
  const push = (update: { message?: string; output?: string }): void => {
    if (update.message !== undefined) message = update.message
    if (update.output !== undefined) {
      output += update.output
      if (output.length > LIVE_OUTPUT_WINDOW_CHARS) {
        skipped += output.length - LIVE_OUTPUT_WINDOW_CHARS
        output = output.slice(-LIVE_OUTPUT_WINDOW_CHARS)
      }
    }
    const wait = last + LIVE_INTERVAL_MS - Date.now()
    if (wait <= 0) flush()
    else if (!timer) {
      timer = setTimeout(flush, wait)
      timer.unref?.()
    }
  }
  return { push, flush }
}

function redactResult(result: ToolResult, redactor: Redactor): ToolResult {
  if (!result.ok)
    return { ok: false, error: { ...result.error, message: redactor.redact(result.error.message) } }
  // `details` feed the UI and stream-json, so they are scrubbed too.
  return { ok: true, output: redactor.redactValue(result.output) }
}

/** A session log that redacts every record (main and agent logs) before it is written. */
export function redactingLog(log: SessionLog, redactor: Redactor): SessionLog {
  return {
    get sessionId() {
      return log.sessionId
    },
    append: (record: LogRecord) => log.append(redactor.redactValue(record)),
    appendAgent: (agentId: string, record: LogRecord) =>
      log.appendAgent(agentId, redactor.redactValue(record)),
    sync: () => log.sync(),
    close: () => log.close(),
  }
}
