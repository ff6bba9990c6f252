import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { methods } from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import { connectAgent, drain, startSession } from './harness.js'

const text = (value: string) => ({ blocks: [{ type: 'text' as const, text: value }] })
const bash = (command: string, id: string) => ({
  type: 'tool_use' as const,
  id,
  name: 'Bash',
  input: { command },
})
const allowOnce = () => ({ outcome: { outcome: 'selected' as const, optionId: 'allowOnce' } })

describe('z-engine acp', () => {
  it('initializes, opens a session in cwd and streams a prompt to end_turn', async () => {
    const { agent, project } = await connectAgent([text('Hello from the engine.')], allowOnce, {
      chunkSize: 4,
    })
    const session = await startSession(agent, project)
    expect(session.modes?.currentModeId).toBe('default')
    expect(session.modes?.availableModes.map((mode) => mode.id)).toEqual([
      'default',
      'acceptEdits',
      'plan',
      'bypass',
    ])
    void session.prompt('say hello')
    const { updates, stopReason } = await drain(session)
    expect(stopReason).toBe('end_turn')
    const chunks = updates.filter((update) => update.sessionUpdate === 'agent_message_chunk')
    expect(chunks.length).toBeGreaterThan(1)
    expect(chunks.map((chunk) => (chunk.content.type === 'text' ? chunk.content.text : '')).join('')).toBe(
      'Hello from the engine.',
    )
  })

  it('asks permission through the client and runs the tool when allowed', async () => {
    const { agent, project, permissionRequests } = await connectAgent(
      [{ blocks: [bash('printf hi > made.txt', 'call-1')] }, text('Made it.')],
      allowOnce,
    )
    const session = await startSession(agent, project)
    void session.prompt('make a file')
    const { updates, stopReason } = await drain(session)
    expect(stopReason).toBe('end_turn')
    expect(permissionRequests).toHaveLength(1)
    const request = permissionRequests[0]
    expect(request?.toolCall.toolCallId).toBe('call-1')
    expect(request?.options.map((option) => option.kind)).toContain('allow_once')
    expect(request?.options.at(-1)?.kind).toBe('reject_once')
    expect(JSON.stringify(request?.toolCall.content)).toContain('printf hi > made.txt')
    expect(existsSync(join(project, 'made.txt'))).toBe(true)
    const toolUpdates = updates.filter(
      (update) =>
        (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') &&
        update.toolCallId === 'call-1',
    )
    expect(toolUpdates[0]).toMatchObject({ sessionUpdate: 'tool_call', status: 'pending', kind: 'execute' })
    expect(toolUpdates.at(-1)).toMatchObject({ sessionUpdate: 'tool_call_update', status: 'completed' })
  })

  it('denies when the client rejects, and reports the call as failed', async () => {
    const { agent, project, model } = await connectAgent(
      [{ blocks: [bash('rm -rf build', 'call-2')] }, text('Left it alone.')],
      () => ({ outcome: { outcome: 'selected', optionId: 'deny' } }),
    )
    const session = await startSession(agent, project)
    void session.prompt('clean')
    const { updates, stopReason } = await drain(session)
    expect(stopReason).toBe('end_turn')
    expect(updates.at(-1)).toBeDefined()
    const finished = updates.find(
      (update) =>
        update.sessionUpdate === 'tool_call_update' && update.toolCallId === 'call-2' && update.status,
    )
    expect(finished).toMatchObject({ status: 'failed' })
    // The model heard the denial in the tool result of its next request.
    expect(JSON.stringify(model.requests.at(-1)?.messages)).toMatch(/denied|Denied/)
  })

  it('session/cancel interrupts the turn and the prompt stops with cancelled', async () => {
    const { agent, project } = await connectAgent([text('word '.repeat(500))], allowOnce, {
      chunkSize: 5,
      delayMs: 10,
    })
    const session = await startSession(agent, project)
    void session.prompt('write a lot')
    const first = await session.nextUpdate()
    expect(first.kind).toBe('session_update')
    await agent.notify(methods.agent.session.cancel, { sessionId: session.sessionId })
    const { stopReason } = await drain(session)
    expect(stopReason).toBe('cancelled')
  })

  it('session/set_mode changes the engine mode and reports it', async () => {
    const { agent, project } = await connectAgent([], allowOnce)
    const session = await startSession(agent, project)
    await agent.request(methods.agent.session.setMode, { sessionId: session.sessionId, modeId: 'plan' })
    const message = await session.nextUpdate()
    expect(message).toMatchObject({
      kind: 'session_update',
      update: { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
    })
  })

  it('rejects a prompt for an unknown session', async () => {
    const { agent } = await connectAgent([], allowOnce)
    await expect(
      agent.request(methods.agent.session.prompt, {
        sessionId: 'nope',
        prompt: [{ type: 'text', text: 'hi' }],
      }),
    ).rejects.toThrow()
  })
})
