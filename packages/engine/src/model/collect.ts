/** Collecting a model stream into its final result, for callers that do not need the deltas. */
import { abortedError } from './errors.js'
import type { ModelResult, StreamEvent } from './types.js'

/**
 * Drains a stream into its final message or error. `onEvent` sees every event on the way (for
 * display). Never throws: a stream that ends with neither `message_end` nor `error` yields a
 * `network` error.
 */
export async function collectStream(
  events: AsyncIterable<StreamEvent>,
  onEvent?: (event: StreamEvent) => void,
): Promise<ModelResult> {
  let retries = 0
  try {
    for await (const event of events) {
      onEvent?.(event)
      if (event.type === 'retrying') retries++
      if (event.type === 'message_end') {
        const { type: _type, ...rest } = event
        return { ok: true, retries, ...rest }
      }
      if (event.type === 'error') return { ok: false, error: event.error, retries }
    }
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError')
      return { ok: false, error: abortedError(), retries }
    const message = error instanceof Error ? error.message : String(error)
    return { ok: false, error: { kind: 'network', message: `The model stream failed: ${message}` }, retries }
  }
  return {
    ok: false,
    error: { kind: 'network', message: 'The model stream ended without a result. Try again.' },
    retries,
  }
}
