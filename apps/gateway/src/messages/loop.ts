/**
 * One Messages request through the upstream: up to `maxRounds` rounds. A round whose model turn
 * calls only gateway tools runs them (admission in model order, then concurrently), shows the
 * `server_tool_use`/`mcp_tool_use` blocks and their results, feeds the outputs back and infers again;
 * a round with a client `tool_use` returns it (`stop_reason: tool_use`), its gateway calls hidden and
 * not run, as is any gateway call of a terminal round. JSON and SSE share this loop: with a sink the
 * upstream streams and every block is relayed as it grows, in Anthropic's event order. Nothing is
 * stored (the Messages API is stateless).
 */
import { RetainedBudget } from '../executor/budget.js'
import type { RoundOutcome } from '../sse/round-accumulator.js'
import { isObject } from '../wire/json.js'
import { releasedChoice, runGatewayCalls, takeOutput } from './gateway-calls.js'
import type { MessagesInput, MessagesResult } from './message-result.js'
import { MessageWriter } from './message-writer.js'
import { readRound } from './read-round.js'
import type { MessagesRequest, MessagesToolChoice } from './request.js'
import { toInputItems, upstreamBody } from './to-upstream.js'
import type { Provenance } from './tool-types.js'

/** Every URL-looking text the conversation holds so far: user messages, tool results, result blocks. */
function provenanceOf(request: MessagesRequest): Provenance {
  const texts: string[] = []
  const add = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value)
    else if (Array.isArray(value)) for (const entry of value) add(entry)
    else if (isObject(value)) for (const entry of Object.values(value)) add(entry)
  }
  for (const message of request.messages)
    for (const block of message.content) {
      if (message.role === 'user') add(block)
      else if (String(block.type).endsWith('_tool_result')) add(block.content)
    }
  return {
    has: (url) => {
      const bare = url.replace(/\/+$/, '')
      return texts.some((text) => text.includes(bare))
    },
    add: (text) => texts.push(text),
  }
}

function stopReasonFor(outcome: RoundOutcome): string | undefined {
  if (outcome.status !== 'incomplete') return undefined
  if (outcome.incompleteReason === 'max_output_tokens') return 'max_tokens'
  if (outcome.incompleteReason === 'content_filter') return 'refusal'
  return undefined
}

/** Runs the request. Never throws for upstream or protocol trouble. */
export async function runMessages(input: MessagesInput): Promise<MessagesResult> {
  const { request, tools, config, sink } = input
  const limits = config.limits
  const budget = new RetainedBudget(limits.maxRetainedBytes)
  const history = toInputItems(request)
  if (!Array.isArray(history)) return { kind: 'error', error: history }
  const provenance = provenanceOf(request)
  const writer = new MessageWriter(request, sink, limits, tools)
  let toolChoice: MessagesToolChoice = request.toolChoice

  for (let round = 0; round < limits.maxRounds; round++) {
    const body = upstreamBody(request, history, tools.upstreamTools, toolChoice, sink !== undefined)
    const read = await readRound(input, writer, budget, body)
    if (read.type === 'ended') return read.result
    const outcome = read.outcome
    writer.usage.add(outcome.usage)
    if (outcome.status === 'failed')
      return writer.fail(
        502,
        outcome.error?.code ?? 'upstream_failed',
        outcome.error?.message ?? 'The upstream model failed this message.',
      )
    const output = takeOutput(outcome, history, input, writer)
    if (outcome.status === 'incomplete') {
      const stop = stopReasonFor(outcome)
      if (stop) return writer.finish(stop)
      return writer.fail(
        500,
        outcome.incompleteReason ?? 'incomplete',
        `The message stopped at a gateway ceiling (${outcome.incompleteReason}); raise it or shorten the request.`,
      )
    }
    if (output.clientCalls > 0) return writer.finish('tool_use')
    if (output.gatewayCalls.length === 0) return writer.finish(output.refusal ? 'refusal' : 'end_turn')
    const ran = await runGatewayCalls(input, writer, budget, history, output.gatewayCalls, provenance)
    if (ran !== undefined) return ran
    toolChoice = releasedChoice(toolChoice, output.gatewayCalls)
  }
  // The last round still called gateway tools: they ran; the client may continue the turn.
  return writer.finish('pause_turn')
}
