import type { RetainedBudget } from '../executor/budget.js'
import { SseDecoder } from '../sse/parse-sse.js'
import { readUpstreamRound } from '../sse/read-upstream.js'
import { outcomeOfJson, RoundAccumulator, type RoundOutcome } from '../sse/round-accumulator.js'
import { roundSignal } from '../upstream/round-signal.js'
import type { MessagesInput, MessagesResult } from './message-result.js'
import type { MessageWriter } from './message-writer.js'

/** A round's model turn, or how the request ended while reading it. */
export type RoundRead = { type: 'outcome'; outcome: RoundOutcome } | { type: 'ended'; result: MessagesResult }

function ended(result: MessagesResult): RoundRead {
  return { type: 'ended', result }
}

/**
 * Asks the upstream for one round and reads its outcome: whole from a JSON reply, or relayed block
 * by block to the writer as the upstream streams it.
 */
export async function readRound(
  input: MessagesInput,
  writer: MessageWriter,
  budget: RetainedBudget,
  body: Record<string, unknown>,
): Promise<RoundRead> {
  const { limits } = input.config
  const upstreamRound = roundSignal(input.signal)
  const reply = await input.upstream.createResponse(body, upstreamRound.signal)
  if (input.signal.aborted) return ended({ kind: 'aborted' })
  if (reply.kind === 'error') {
    if (!writer.started) return ended({ kind: 'error', error: reply.error })
    return ended(
      await writer.fail(reply.error.status, reply.error.code ?? 'upstream_error', reply.error.message),
    )
  }
  await writer.start()
  writer.blocks.newRound()
  if (reply.kind === 'json') return { type: 'outcome', outcome: outcomeOfJson(reply.body, budget) }
  const accumulator = new RoundAccumulator(budget)
  const decoder = new SseDecoder(limits.maxSseLineBytes)
  const read = await readUpstreamRound(
    reply.body,
    decoder,
    async (event) => {
      const pushed = accumulator.push(event)
      if (pushed.kind === 'stop') return pushed.outcome
      if (pushed.kind === 'item') await writer.blocks.item(event, pushed.slot, input.tools.owns)
      return undefined
    },
    () => writer.clientGone || writer.eventLimitHit,
  )
  if (read.broken && input.signal.aborted) return ended({ kind: 'aborted' })
  upstreamRound.end()
  if (writer.clientGone || input.signal.aborted) return ended({ kind: 'aborted' })
  if (writer.eventLimitHit)
    return ended(
      await writer.fail(
        500,
        'max_stream_event_bytes',
        `An event would exceed ${limits.maxStreamEventBytes} bytes (maxStreamEventBytes).`,
      ),
    )
  return { type: 'outcome', outcome: read.outcome ?? accumulator.end() }
}
