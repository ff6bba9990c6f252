/**
 * One Messages request through the upstream: up to `maxRounds` rounds. A round whose model turn
 * calls only gateway tools runs them (admission in model order, then concurrently), shows the
 * `server_tool_use`/`mcp_tool_use` blocks and their results, feeds the outputs back and infers again;
 * a round with a client `tool_use` returns it (`stop_reason: tool_use`), its gateway calls hidden and
 * not run, as is any gateway call of a terminal round. JSON and SSE share this loop: with a sink the
 * upstream streams and every block is relayed as it grows, in Anthropic's event order. Nothing is
 * stored (the Messages API is stateless).
 */
import type { GatewayConfig } from '../config.js'
import { RetainedBudget } from '../executor/budget.js'
import { toInputItem } from '../executor/items.js'
import { SseDecoder } from '../sse/parse-sse.js'
import { readUpstreamRound } from '../sse/read-upstream.js'
import { outcomeOfJson, RoundAccumulator, type RoundOutcome } from '../sse/round-accumulator.js'
import { roundSignal } from '../upstream/round-signal.js'
import type { Upstream } from '../upstream/upstream.js'
import type { GatewayError } from '../wire/errors.js'
import { newId } from '../wire/ids.js'
import { isObject, type JsonObject, jsonBytes } from '../wire/json.js'
import { blocksOf, refused, UsageTotals } from './blocks.js'
import type { MessagesRequest, MessagesToolChoice } from './request.js'
import { BlockStream } from './stream-blocks.js'
import { toInputItems, upstreamBody } from './to-upstream.js'
import type { MessagesCall, MessagesTools, Provenance } from './tools.js'

/** Where a streamed message's events go; `send` resolves false when the client left. */
export interface MessagesSink {
  send(event: string, data: JsonObject): Promise<boolean>
}

/** Everything one request needs. */
export interface MessagesInput {
  request: MessagesRequest
  tools: MessagesTools
  upstream: Upstream
  config: GatewayConfig
  sink: MessagesSink | undefined
  signal: AbortSignal
}

/** How it ended: a message (already streamed when there was a sink), an error before any event, or the client left. */
export type MessagesResult =
  | { kind: 'message'; message: JsonObject }
  | { kind: 'error'; error: GatewayError }
  | { kind: 'aborted' }

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

/** The Anthropic error type for a gateway error status. */
export function anthropicErrorType(status: number): string {
  if (status === 400 || status === 409 || status === 422 || status === 424) return 'invalid_request_error'
  if (status === 401) return 'authentication_error'
  if (status === 403) return 'permission_error'
  if (status === 404) return 'not_found_error'
  if (status === 413) return 'request_too_large'
  if (status === 429) return 'rate_limit_error'
  if (status === 529) return 'overloaded_error'
  return 'api_error'
}

/** Runs the request. Never throws for upstream or protocol trouble. */
export async function runMessages(input: MessagesInput): Promise<MessagesResult> {
  const { request, tools, config, sink } = input
  const limits = config.limits
  const budget = new RetainedBudget(limits.maxRetainedBytes)
  const history = toInputItems(request)
  if (!Array.isArray(history)) return { kind: 'error', error: history }
  const provenance = provenanceOf(request)
  const usage = new UsageTotals()
  const content: JsonObject[] = []
  const message: JsonObject = {
    id: newId('msg'),
    type: 'message',
    role: 'assistant',
    model: request.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0 },
  }
  let toolChoice: MessagesToolChoice = request.toolChoice
  let started = false
  let clientGone = false
  let eventLimitHit = false

  const send = async (event: string, data: JsonObject): Promise<boolean> => {
    if (!sink || clientGone || eventLimitHit) return false
    if (jsonBytes(data) > limits.maxStreamEventBytes) {
      eventLimitHit = true
      return false
    }
    if (!(await sink.send(event, data))) clientGone = true
    return !clientGone
  }
  const blocks = new BlockStream(send)

  const finish = async (stopReason: string): Promise<MessagesResult> => {
    const final = {
      ...message,
      content,
      stop_reason: stopReason,
      usage: usage.toJson(tools.serverToolUse()),
    }
    if (sink) {
      await blocks.closeAll()
      await send('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: final.usage,
      })
      await send('message_stop', { type: 'message_stop' })
      if (clientGone) return { kind: 'aborted' }
    }
    return { kind: 'message', message: final }
  }
  const fail = async (status: number, code: string, text: string): Promise<MessagesResult> => {
    if (!started || !sink)
      return { kind: 'error', error: { status, type: 'upstream_error', message: text, code } }
    await send('error', { type: 'error', error: { type: anthropicErrorType(status), message: text } })
    return { kind: 'message', message: { ...message, content, stop_reason: null } }
  }

  for (let round = 0; round < limits.maxRounds; round++) {
    const body = upstreamBody(request, history, tools.upstreamTools, toolChoice, sink !== undefined)
    const upstreamRound = roundSignal(input.signal)
    const reply = await input.upstream.createResponse(body, upstreamRound.signal)
    if (input.signal.aborted) return { kind: 'aborted' }
    if (reply.kind === 'error') {
      if (!started) return { kind: 'error', error: reply.error }
      return fail(reply.error.status, reply.error.code ?? 'upstream_error', reply.error.message)
    }
    if (sink && !started) {
      started = true
      await send('message_start', { type: 'message_start', message })
      await send('ping', { type: 'ping' })
    }
    started = true
    blocks.newRound()

    let outcome: RoundOutcome
    if (reply.kind === 'json') {
      outcome = outcomeOfJson(reply.body, budget)
    } else {
      const accumulator = new RoundAccumulator(budget)
      const decoder = new SseDecoder(limits.maxSseLineBytes)
      const read = await readUpstreamRound(
        reply.body,
        decoder,
        async (event) => {
          const pushed = accumulator.push(event)
          if (pushed.kind === 'stop') return pushed.outcome
          if (pushed.kind === 'item') await blocks.item(event, pushed.slot, tools.owns)
          return undefined
        },
        () => clientGone || eventLimitHit,
      )
      if (read.broken && input.signal.aborted) return { kind: 'aborted' }
      const ended = read.outcome
      upstreamRound.end()
      if (clientGone || input.signal.aborted) return { kind: 'aborted' }
      if (eventLimitHit)
        return fail(
          500,
          'max_stream_event_bytes',
          `An event would exceed ${limits.maxStreamEventBytes} bytes (maxStreamEventBytes).`,
        )
      outcome = ended ?? accumulator.end()
    }
    usage.add(outcome.usage)
    if (outcome.status === 'failed')
      return fail(
        502,
        outcome.error?.code ?? 'upstream_failed',
        outcome.error?.message ?? 'The upstream model failed this message.',
      )

    // The model's turn, in order: what the client sees, and the gateway calls apart.
    const gatewayCalls: MessagesCall[] = []
    let clientCalls = 0
    let refusal = false
    for (const item of outcome.output) {
      const canonical = toInputItem(item)
      if (canonical) history.push(canonical)
      if (item.type === 'function_call' && tools.owns(String(item.name ?? ''))) {
        gatewayCalls.push({
          id: String(item.call_id ?? item.id ?? newId('call')),
          name: String(item.name),
          arguments: typeof item.arguments === 'string' ? item.arguments : '',
        })
        continue
      }
      if (item.type === 'function_call') clientCalls += 1
      if (refused(item)) refusal = true
      content.push(...blocksOf(item))
    }
    if (outcome.status === 'incomplete') {
      const stop = stopReasonFor(outcome)
      if (stop) return finish(stop)
      return fail(
        500,
        outcome.incompleteReason ?? 'incomplete',
        `The message stopped at a gateway ceiling (${outcome.incompleteReason}); raise it or shorten the request.`,
      )
    }
    if (clientCalls > 0) return finish('tool_use')
    if (gatewayCalls.length === 0) return finish(refusal ? 'refusal' : 'end_turn')

    // Gateway calls: announce, run (admission in model order inside), then their results in order.
    for (const call of gatewayCalls) {
      const use = tools.useBlock(call)
      content.push(use)
      // server_tool_use streams its input as JSON deltas (as tool_use does); mcp_tool_use comes whole.
      if (sink && use.type === 'server_tool_use')
        await blocks.whole(
          { ...use, input: {} },
          { type: 'input_json_delta', partial_json: JSON.stringify(use.input ?? {}) },
        )
      else if (sink) await blocks.whole(use)
    }
    if (sink) await send('ping', { type: 'ping' })
    if (clientGone) return { kind: 'aborted' }
    const results = await tools.execute(gatewayCalls, provenance, input.signal)
    if (input.signal.aborted) return { kind: 'aborted' }
    for (const [index, call] of gatewayCalls.entries()) {
      const result = results[index]
      if (!result) continue
      if (!budget.charge(Buffer.byteLength(result.output)))
        return fail(
          500,
          'max_retained_bytes',
          `Tool results exceeded ${limits.maxRetainedBytes} bytes (maxRetainedBytes).`,
        )
      history.push({ type: 'function_call_output', call_id: call.id, output: result.output })
      content.push(result.block)
      if (sink) await blocks.whole(result.block)
    }
    if (clientGone) return { kind: 'aborted' }
    // A forced choice the gateway round fulfilled is released, so the model can answer from the results.
    const choice = toolChoice
    if (
      choice.type === 'any' ||
      (choice.type === 'tool' && gatewayCalls.some((call) => call.name === choice.name))
    )
      toolChoice = { type: 'auto', disableParallel: toolChoice.disableParallel }
  }
  // The last round still called gateway tools: they ran; the client may continue the turn.
  return finish('pause_turn')
}
