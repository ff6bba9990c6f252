import type { RetainedBudget } from '../executor/budget.js'
import { toInputItem } from '../executor/items.js'
import type { RoundOutcome } from '../sse/round-accumulator.js'
import { newId } from '../wire/ids.js'
import type { JsonObject } from '../wire/json.js'
import { blocksOf, refused } from './blocks.js'
import type { MessagesInput, MessagesResult } from './message-result.js'
import type { MessageWriter } from './message-writer.js'
import type { MessagesToolChoice } from './request.js'
import type { MessagesCall, Provenance } from './tool-types.js'

/** A round's model turn split: the gateway's calls apart, what the client sees counted. */
export interface RoundOutput {
  gatewayCalls: MessagesCall[]
  clientCalls: number
  refusal: boolean
}

/**
 * Takes the model's turn, in order, into the history and the message's content; the gateway's own
 * calls are held apart (shown once they ran).
 */
export function takeOutput(
  outcome: RoundOutcome,
  history: JsonObject[],
  input: MessagesInput,
  writer: MessageWriter,
): RoundOutput {
  const output: RoundOutput = { gatewayCalls: [], clientCalls: 0, refusal: false }
  for (const item of outcome.output) {
    const canonical = toInputItem(item)
    if (canonical) history.push(canonical)
    if (item.type === 'function_call' && input.tools.owns(String(item.name ?? ''))) {
      output.gatewayCalls.push({
        id: String(item.call_id ?? item.id ?? newId('call')),
        name: String(item.name),
        arguments: typeof item.arguments === 'string' ? item.arguments : '',
      })
      continue
    }
    if (item.type === 'function_call') output.clientCalls += 1
    if (refused(item)) output.refusal = true
    writer.content.push(...blocksOf(item))
  }
  return output
}

/**
 * Gateway calls: announced, run (admission in model order inside), then their results in order,
 * fed back into the history. Undefined when the loop goes on to the next round.
 */
export async function runGatewayCalls(
  input: MessagesInput,
  writer: MessageWriter,
  budget: RetainedBudget,
  history: JsonObject[],
  calls: MessagesCall[],
  provenance: Provenance,
): Promise<MessagesResult | undefined> {
  const { tools, sink, signal } = input
  for (const call of calls) {
    const use = tools.useBlock(call)
    writer.content.push(use)
    // server_tool_use streams its input as JSON deltas (as tool_use does); mcp_tool_use comes whole.
    if (sink && use.type === 'server_tool_use')
      await writer.blocks.whole(
        { ...use, input: {} },
        { type: 'input_json_delta', partial_json: JSON.stringify(use.input ?? {}) },
      )
    else if (sink) await writer.blocks.whole(use)
  }
  if (sink) await writer.send('ping', { type: 'ping' })
  if (writer.clientGone) return { kind: 'aborted' }
  const results = await tools.execute(calls, provenance, signal)
  if (signal.aborted) return { kind: 'aborted' }
  for (const [index, call] of calls.entries()) {
    const result = results[index]
    if (!result) continue
    if (!budget.charge(Buffer.byteLength(result.output)))
      return writer.fail(
        500,
        'max_retained_bytes',
        `Tool results exceeded ${input.config.limits.maxRetainedBytes} bytes (maxRetainedBytes).`,
      )
    history.push({ type: 'function_call_output', call_id: call.id, output: result.output })
    writer.content.push(result.block)
    if (sink) await writer.blocks.whole(result.block)
  }
  if (writer.clientGone) return { kind: 'aborted' }
  return undefined
}

/** A forced choice the gateway round fulfilled is released, so the model can answer from the results. */
export function releasedChoice(
  choice: MessagesToolChoice,
  calls: readonly MessagesCall[],
): MessagesToolChoice {
  if (choice.type === 'any' || (choice.type === 'tool' && calls.some((call) => call.name === choice.name)))
    return { type: 'auto', disableParallel: choice.disableParallel }
  return choice
}
