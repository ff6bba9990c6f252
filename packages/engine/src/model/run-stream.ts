/**
 * The shared driver every adapter runs through: one attempt at a time, classified errors, retries
 * announced as `retrying` events, and the final `message_end` assembled from the attempt's events.
 */
import { MessageAssembler } from './assembler.js'
import {
  abortedError,
  classifyError,
  isRetryable,
  type ModelEndpoint,
  StreamProtocolError,
} from './errors.js'
import { type ResolvedRetryOptions, retryDelayMs } from './retry.js'
import type { StopReason, StreamEvent } from './types.js'

/** What an adapter's attempt yields: content and usage events, then exactly one `finish`. */
export type AttemptEvent =
  | Exclude<StreamEvent, { type: 'message_end' } | { type: 'retrying' } | { type: 'error' }>
  | { type: 'finish'; stopReason: StopReason; providerStopReason?: string }

/** One attempt: opens the HTTP stream with `signal` and yields its events; throws on any failure. */
export type Attempt = (signal: AbortSignal) => AsyncIterable<AttemptEvent>

/**
 * Runs attempts with retries. Never throws: failures end the stream with an `error` event.
 * `endpoint` lets a connection failure name the URL it could not reach.
 */
export async function* runStream(
  provider: string,
  attempt: Attempt,
  retry: ResolvedRetryOptions,
  signal: AbortSignal | undefined,
  endpoint?: ModelEndpoint,
): AsyncGenerator<StreamEvent> {
  for (let attemptNumber = 1; ; attemptNumber++) {
    if (signal?.aborted) {
      yield { type: 'error', error: abortedError() }
      return
    }
    // A per-attempt controller, so a failed attempt's body is always closed before the next one.
    const controller = new AbortController()
    const forward = (): void => controller.abort(signal?.reason)
    signal?.addEventListener('abort', forward, { once: true })
    const assembler = new MessageAssembler()
    let failure: unknown
    try {
      for await (const event of attempt(controller.signal)) {
        if (event.type === 'finish') {
          const stopReason =
            event.stopReason === 'end_turn' && assembler.hasToolCalls() ? 'tool_use' : event.stopReason
          const end: StreamEvent = {
            type: 'message_end',
            stopReason,
            content: assembler.content(),
            usage: assembler.usage,
            toolCallErrors: assembler.toolCallErrors(),
          }
          if (event.providerStopReason !== undefined) end.providerStopReason = event.providerStopReason
          yield end
          return
        }
        assembler.add(event)
        yield event
      }
      failure = new StreamProtocolError('the response stream ended before the message was complete')
    } catch (error) {
      failure = error
    } finally {
      signal?.removeEventListener('abort', forward)
      controller.abort()
    }
    const error = classifyError(failure, signal, provider, endpoint)
    const delayMs =
      attemptNumber <= retry.maxRetries && isRetryable(error)
        ? retryDelayMs(attemptNumber, error, retry)
        : undefined
    if (delayMs === undefined) {
      yield { type: 'error', error }
      return
    }
    yield { type: 'retrying', attempt: attemptNumber, delayMs, reason: error.message, error }
    try {
      await retry.sleep(delayMs, signal)
    } catch {
      yield { type: 'error', error: abortedError() }
      return
    }
  }
}
