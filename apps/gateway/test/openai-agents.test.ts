/**
 * The OpenAI Agents SDK (`@openai/agents`, a client nobody here wrote) running an agent with a
 * function tool against the gateway over the scripted upstream: the model calls the tool, the SDK
 * runs it and sends its output back, and the agent's final answer uses it — in one run, streamed,
 * and continued by `previousResponseId` (the gateway's stored chain).
 */
import { Agent, OpenAIProvider, Runner, tool } from '@openai/agents'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type Stack, startStack, text } from './harness.js'

let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
})

const toolCall = (id: string, a: number, b: number) => ({
  blocks: [{ type: 'tool_use' as const, id, name: 'add', input: { a, b } }],
})

function agentFor(calls: Array<{ a: number; b: number }>): { agent: Agent; runner: Runner } {
  const add = tool({
    name: 'add',
    description: 'Adds two numbers.',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => {
      calls.push({ a, b })
      return String(a + b)
    },
  })
  const agent = new Agent({ name: 'calculator', instructions: 'Use the add tool.', model: 'm', tools: [add] })
  const provider = new OpenAIProvider({
    apiKey: 'test-key',
    baseURL: `${stack?.gateway.url}/v1`,
    useResponses: true,
  })
  return { agent, runner: new Runner({ modelProvider: provider, tracingDisabled: true }) }
}

/** The function_call_output items the upstream received in request `index`. */
function toolOutputs(index: number): unknown[] {
  const input = stack?.upstream.requests[index]?.body.input
  return Array.isArray(input)
    ? input
        .filter((item: Record<string, unknown>) => item.type === 'function_call_output')
        .map((item) => item.output)
    : []
}

describe('@openai/agents against the gateway', () => {
  it('runs an agent that calls a function tool and answers with its result', async () => {
    stack = await startStack([toolCall('call_1', 2, 3), text('The sum is 5.')])
    const calls: Array<{ a: number; b: number }> = []
    const { agent, runner } = agentFor(calls)
    const result = await runner.run(agent, 'What is 2 + 3?')
    expect(result.finalOutput).toBe('The sum is 5.')
    expect(calls).toEqual([{ a: 2, b: 3 }])
    expect(stack.upstream.requests).toHaveLength(2)
    expect(toolOutputs(1)).toEqual(['5'])
    // The gateway stored the agent's turns: the last response is retrievable.
    expect(result.lastResponseId).toMatch(/^resp_/)
    const stored = await stack.client.responses.retrieve(String(result.lastResponseId))
    expect(stored.output_text).toBe('The sum is 5.')
  })

  it('streams a run, then continues it by previousResponseId from the stored chain', async () => {
    stack = await startStack([
      toolCall('call_1', 4, 5),
      text('It is 9.'),
      toolCall('call_2', 9, 1),
      text('Now it is 10.'),
    ])
    const calls: Array<{ a: number; b: number }> = []
    const { agent, runner } = agentFor(calls)
    const streamed = await runner.run(agent, 'What is 4 + 5?', { stream: true })
    let deltas = ''
    for await (const event of streamed.toTextStream()) deltas += event
    await streamed.completed
    expect(streamed.finalOutput).toBe('It is 9.')
    expect(deltas).toBe('It is 9.')
    const next = await runner.run(agent, 'Add 1 to that.', {
      previousResponseId: String(streamed.lastResponseId),
    })
    expect(next.finalOutput).toBe('Now it is 10.')
    expect(calls).toEqual([
      { a: 4, b: 5 },
      { a: 9, b: 1 },
    ])
    // The continuation sent only the new input; the gateway replayed the chain to the upstream.
    const replayed = stack.upstream.requests[2]?.body.input as Array<Record<string, unknown>>
    expect(replayed.some((item) => item.type === 'function_call_output' && item.output === '9')).toBe(true)
    expect(toolOutputs(3)).toContain('10')
  })
})
