import { execFileSync } from 'node:child_process'
import type { AgentInfo, EngineEvent, EventEnvelope, Message } from '@z-engine/protocol'
import type { Session } from '../index.js'
import type { ScriptStep } from '../model/scripted/script.js'
import type { ScriptSource } from '../model/scripted/scripted-client.js'
import type { ModelRequest } from '../model/types.js'

/** Test helpers for orchestration: per-agent scripts over a real engine. */
export type Step = ScriptStep | ((request: ModelRequest) => ScriptStep)

/** Which agent a request comes from, by its system prompt (each definition's prompt is its base). */
export function agentOf(request: ModelRequest): string {
  const base = request.system[0]?.text ?? ''
  if (base.startsWith('You are an exploration subagent')) return 'explore'
  if (base.startsWith('You are a subagent of Z Engine')) return 'general'
  if (base.startsWith('You are a reader')) return 'reader'
  return 'main'
}

/** A script answering each agent from its own list, by how many answers it has given so far. */
export function perAgent(steps: Record<string, Step[]>): ScriptSource {
  return (request) => {
    const agent = agentOf(request)
    const round = request.messages.filter((message) => message.role === 'assistant').length
    const step = steps[agent]?.[round]
    if (step === undefined) return { blocks: [{ type: 'text', text: `(${agent} has no step ${round})` }] }
    return typeof step === 'function' ? step(structuredClone(request)) : step
  }
}

export const text = (value: string): ScriptStep => ({ blocks: [{ type: 'text', text: value }] })
export const call = (name: string, input: Record<string, unknown>): ScriptStep => ({
  blocks: [{ type: 'tool_use', name, input }],
})

/** The text of the last tool result in a request (what the model saw of its last call). */
export function lastToolResult(request: ModelRequest): { text: string; isError: boolean } {
  const last = request.messages.at(-1) as Message
  const result = last.content.find((block) => block.type === 'tool_result')
  if (result?.type !== 'tool_result')
    throw new Error(`no tool result in the last message: ${JSON.stringify(request.messages.slice(-2))}`)
  const textOf = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n')
  return { text: textOf, isError: result.isError === true }
}

export async function untilIdle(session: Session, envelopes: EventEnvelope[], turns = 1): Promise<void> {
  for (;;) {
    const finished = envelopes.filter(
      (envelope) =>
        envelope.sessionId === session.id &&
        envelope.agentId === undefined &&
        envelope.event.type === 'turnFinished',
    )
    if (finished.length >= turns) return session.idle()
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

export function agentInfos(events: EngineEvent[]): AgentInfo[] {
  return events.flatMap((event) => (event.type === 'agentUpdated' ? [event.agent] : []))
}

/** Consecutive duplicates dropped: progress updates repeat the lifecycle state. */
export function changes<T>(values: T[]): T[] {
  return values.filter((value, index) => index === 0 || value !== values[index - 1])
}

export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5))
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim()
}
