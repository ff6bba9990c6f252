/**
 * A {@link ModelClient} that answers from a script instead of a provider: for engine tests, the
 * CLI's `scripted:<file>` model, and embedders testing their integrations. It records every request.
 */
import { TypedModelError } from '../errors.js'
import { resolveRetryOptions } from '../retry.js'
import { type AttemptEvent, runStream } from '../run-stream.js'
import { parseToolArgs } from '../tool-args.js'
import type { ModelClient, ModelRequest, StreamEvent } from '../types.js'
import { type ResolvedResponse, resolveResponse, type ScriptStep, splitText } from './script.js'

/** Where the responses come from: a list consumed in order, or a function of the request. */
export type ScriptSource =
  | ScriptStep[]
  | ((request: ModelRequest, index: number) => ScriptStep | Promise<ScriptStep>)

/** Options of {@link ScriptedClient}. */
export interface ScriptedClientOptions {
  /** Characters per text/thinking/argument delta (default 16), to exercise streaming consumers. */
  chunkSize?: number
  /** Delay before each delta, for cancellation tests (default 0). */
  delayMs?: number
}

/** A scripted model client. `requests` holds a deep copy of every request received. */
export class ScriptedClient implements ModelClient {
  readonly provider = 'scripted' as const
  readonly requests: ModelRequest[] = []
  private readonly chunkSize: number
  private readonly delayMs: number

  constructor(
    private readonly source: ScriptSource,
    options: ScriptedClientOptions = {},
  ) {
    this.chunkSize = options.chunkSize ?? 16
    this.delayMs = options.delayMs ?? 0
  }

  /** How many steps of a list script are left (Infinity for a function script). */
  get remaining(): number {
    return Array.isArray(this.source)
      ? Math.max(0, this.source.length - this.requests.length)
      : Number.POSITIVE_INFINITY
  }

  /** Streams the next step's response. */
  stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<StreamEvent> {
    const index = this.requests.length
    this.requests.push(structuredClone(request))
    const next = async (): Promise<ScriptStep | undefined> =>
      Array.isArray(this.source) ? this.source[index] : this.source(request, index)
    const chunkSize = this.chunkSize
    const delayMs = this.delayMs
    const attempt = async function* (attemptSignal: AbortSignal): AsyncGenerator<AttemptEvent> {
      const step = await next()
      if (step === undefined) {
        throw new TypedModelError({
          kind: 'invalid_request',
          message: `The script has no response for request ${index + 1}; add a step to the script.`,
        })
      }
      if ('error' in step) throw new TypedModelError(step.error)
      if ('fault' in step) {
        throw new TypedModelError({
          kind: 'invalid_request',
          message: `Fault "${step.fault.type}" is served only by the scripted HTTP server; use an "error" step with ScriptedClient.`,
        })
      }
      yield* scriptedEvents(resolveResponse(step, index + 1), chunkSize, delayMs, attemptSignal)
    }
    return runStream('scripted', attempt, resolveRetryOptions({ maxRetries: 0 }), signal)
  }
}

async function* scriptedEvents(
  response: ResolvedResponse,
  chunkSize: number,
  delayMs: number,
  signal: AbortSignal,
): AsyncGenerator<AttemptEvent> {
  const pause = async (): Promise<void> => {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
    if (signal.aborted) throw new DOMException('aborted', 'AbortError')
  }
  yield { type: 'usage', usage: { ...response.usage, outputTokens: 0 } }
  for (const [index, block] of response.blocks.entries()) {
    switch (block.type) {
      case 'text':
        yield { type: 'text_start', index }
        for (const piece of splitText(block.text, chunkSize)) {
          await pause()
          if (piece !== '') yield { type: 'text_delta', index, text: piece }
        }
        yield { type: 'text_end', index, text: block.text }
        break
      case 'thinking':
        yield { type: 'thinking_start', index }
        for (const piece of splitText(block.thinking, chunkSize)) {
          await pause()
          if (piece !== '') yield { type: 'thinking_delta', index, thinking: piece }
        }
        yield { type: 'thinking_end', index, thinking: block.thinking, signature: block.signature }
        break
      case 'redacted_thinking':
        yield { type: 'redacted_thinking', index, data: block.data }
        break
      case 'tool_use': {
        yield { type: 'tool_call_start', index, id: block.id, name: block.name }
        for (const piece of splitText(block.argsText, chunkSize)) {
          await pause()
          if (piece !== '') yield { type: 'tool_call_args_delta', index, argsText: piece }
        }
        const parsed = parseToolArgs(block.argsText)
        yield parsed.ok
          ? {
              type: 'tool_call_end',
              index,
              id: block.id,
              name: block.name,
              input: parsed.input,
              argsText: block.argsText,
            }
          : {
              type: 'tool_call_end',
              index,
              id: block.id,
              name: block.name,
              input: {},
              argsText: block.argsText,
              parseError: parsed.message,
            }
        break
      }
      default: {
        const unreachable: never = block
        throw new Error(`unknown block ${JSON.stringify(unreachable)}`)
      }
    }
  }
  yield { type: 'usage', usage: response.usage }
  yield { type: 'finish', stopReason: response.stopReason, providerStopReason: response.stopReason }
}
