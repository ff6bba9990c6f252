/**
 * Reads one round's upstream Responses stream: decodes SSE, parses each event and hands it to the
 * caller until the caller has an outcome, wants to stop, or the stream ends. Shared by the Responses
 * turn executor and the Messages loop, which differ only in what they do with an event.
 */
import type { SseDecoder } from './parse-sse.js'
import type { RoundOutcome } from './round-accumulator.js'
import { parseUpstreamEvent, type UpstreamEvent } from './upstream-event.js'

/** The outcome the stream itself decided (none when it ended normally), and whether it broke. */
export interface UpstreamRead {
  outcome: RoundOutcome | undefined
  /** The body threw: the caller checks whether its own abort caused it. */
  broken: boolean
}

const failed = (code: string, message: string): RoundOutcome => ({
  status: 'failed',
  output: [],
  usage: null,
  incompleteReason: null,
  error: { code, message },
})

/**
 * Feeds `onEvent` each event of `body` in order; an outcome it returns ends the read, as do
 * `stopped()`, a `[DONE]` line, a line over the decoder's limit (incomplete `max_sse_line_bytes`), an
 * event that is not a typed JSON object (failed `upstream_protocol`) and a broken body (failed
 * `upstream_disconnected`). A last event the server did not terminate with a blank line still counts.
 */
export async function readUpstreamRound(
  body: AsyncIterable<Uint8Array>,
  decoder: SseDecoder,
  onEvent: (event: UpstreamEvent) => Promise<RoundOutcome | undefined>,
  stopped: () => boolean,
): Promise<UpstreamRead> {
  let outcome: RoundOutcome | undefined
  const feed = async (data: string, name: string | null): Promise<void> => {
    const event = parseUpstreamEvent(data, name)
    outcome = event
      ? await onEvent(event)
      : failed(
          'upstream_protocol',
          'The upstream stream carried an SSE event that is not a typed JSON object.',
        )
  }
  try {
    for await (const chunk of body) {
      const fed = decoder.push(chunk)
      if (!fed.ok) {
        return {
          outcome: {
            status: 'incomplete',
            output: [],
            usage: null,
            incompleteReason: 'max_sse_line_bytes',
            error: null,
          },
          broken: false,
        }
      }
      for (const message of fed.messages) {
        if (message.kind === 'done') return { outcome, broken: false }
        await feed(message.data, message.event)
        if (outcome || stopped()) return { outcome, broken: false }
      }
    }
    for (const message of decoder.end()) {
      if (message.kind !== 'event' || outcome || stopped()) continue
      await feed(message.data, message.event)
    }
    return { outcome, broken: false }
  } catch (error) {
    return {
      outcome: failed('upstream_disconnected', `The upstream stream broke: ${(error as Error).message}`),
      broken: true,
    }
  }
}
