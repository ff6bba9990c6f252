/**
 * Reads one round's upstream Responses stream: decodes SSE, parses each event and hands it to the
 * caller until the caller has an outcome, wants to stop, or the stream ends. Shared by the Responses
 * turn executor and the Messages loop, which differ only in what they do with an event. Events are
 * handled as their chunk arrives: a handler that answers at once (no backpressure) costs no promise.
 */
import type { ChunkSource } from '../upstream/chunk-source.js'
import type { SseDecoder, SseMessage } from './parse-sse.js'
import type { RoundOutcome } from './round-accumulator.js'
import { parseUpstreamEvent, type UpstreamEvent } from './upstream-event.js'

/** The outcome the stream itself decided (none when it ended normally), and whether it broke. */
export interface UpstreamRead {
  outcome: RoundOutcome | undefined
  /** The body threw: the caller checks whether its own abort caused it. */
  broken: boolean
}

/** What a handler made of one event: the round's outcome (it ends the read), or nothing; now or later. */
export type EventVerdict = RoundOutcome | undefined | Promise<RoundOutcome | undefined>

const failed = (code: string, message: string): RoundOutcome => ({
  status: 'failed',
  output: [],
  usage: null,
  incompleteReason: null,
  error: { code, message },
})

const NOT_TYPED = 'The upstream stream carried an SSE event that is not a typed JSON object.'
const LINE_TOO_LONG: RoundOutcome = {
  status: 'incomplete',
  output: [],
  usage: null,
  incompleteReason: 'max_sse_line_bytes',
  error: null,
}

/**
 * Feeds `onEvent` each event of `body` in order; an outcome it returns ends the read, as do
 * `stopped()`, a `[DONE]` line, a line over the decoder's limit (incomplete `max_sse_line_bytes`), an
 * event that is not a typed JSON object (failed `upstream_protocol`) and a broken body (failed
 * `upstream_disconnected`). A last event the server did not terminate with a blank line still counts.
 */
export async function readUpstreamRound(
  body: ChunkSource,
  decoder: SseDecoder,
  onEvent: (event: UpstreamEvent) => EventVerdict,
  stopped: () => boolean,
): Promise<UpstreamRead> {
  let outcome: RoundOutcome | undefined
  /** Set by `[DONE]` or an outcome: the read is over. */
  let over = false
  /** Records what one event decided; true when the read goes on. */
  const decided = (result: RoundOutcome | undefined): boolean => {
    outcome = result
    if (outcome || stopped()) over = true
    return !over
  }
  /** Handles `messages` from `from` on; a promise when a handler made it wait. */
  const run = (messages: SseMessage[], from: number): boolean | Promise<boolean> => {
    for (let index = from; index < messages.length; index++) {
      const message = messages[index] as SseMessage
      if (message.kind === 'done') {
        over = true
        return false
      }
      const event = parseUpstreamEvent(message.data, message.event)
      if (!event) return decided(failed('upstream_protocol', NOT_TYPED))
      const verdict = onEvent(event)
      if (verdict instanceof Promise)
        return verdict.then((result) => decided(result) && run(messages, index + 1))
      if (!decided(verdict)) return false
    }
    return true
  }
  try {
    await body.read((chunk) => {
      const fed = decoder.push(chunk)
      if (fed.ok) return run(fed.messages, 0)
      outcome = LINE_TOO_LONG
      over = true
      return false
    })
    // The body ended without `[DONE]`: a last event without its blank line still counts.
    if (!over && !stopped()) await run(decoder.end(), 0)
    return { outcome, broken: false }
  } catch (error) {
    return {
      outcome: failed('upstream_disconnected', `The upstream stream broke: ${(error as Error).message}`),
      broken: true,
    }
  }
}
