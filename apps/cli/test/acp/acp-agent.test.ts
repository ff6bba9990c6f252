import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk'
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

  it('session/load replays the stored conversation, then continues it', async () => {
    const first = await connectAgent(
      [{ blocks: [bash('printf x > x.txt', 'call-x')] }, text('First reply.'), text('Second reply.')],
      allowOnce,
    )
    const session = await startSession(first.agent, first.project)
    void session.prompt('first question')
    expect((await drain(session)).stopReason).toBe('end_turn')
    const sessionId = session.sessionId
    await first.engine.shutdown()

    const second = await connectAgent(
      [text('After load.')],
      allowOnce,
      {},
      { home: first.home, project: first.project },
    )
    await second.agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION })
    const loaded = await second.agent.request(methods.agent.session.load, {
      sessionId,
      cwd: second.project,
      mcpServers: [],
    })
    expect(loaded.modes?.currentModeId).toBe('default')
    const replayed = second.notifications.filter((notification) => notification.sessionId === sessionId)
    const kinds = replayed.map((notification) => notification.update.sessionUpdate)
    expect(kinds).toEqual(['user_message_chunk', 'tool_call', 'agent_message_chunk'])
    expect(replayed[0]?.update).toMatchObject({ content: { type: 'text', text: 'first question' } })
    expect(replayed[1]?.update).toMatchObject({ toolCallId: 'call-x', status: 'completed', kind: 'execute' })
    expect(replayed[2]?.update).toMatchObject({ content: { type: 'text', text: 'First reply.' } })
    const response = await second.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'and now?' }],
    })
    expect(response.stopReason).toBe('end_turn')
    // The resumed model saw the earlier turn.
    expect(JSON.stringify(second.model.requests.at(-1)?.messages)).toContain('first question')
  })

  it('session/load of an unknown session is an error', async () => {
    const { agent, project } = await connectAgent([], allowOnce)
    await agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION })
    await expect(
      agent.request(methods.agent.session.load, { sessionId: 'missing', cwd: project, mcpServers: [] }),
    ).rejects.toThrow()
  })

  it('withdraws a pending permission request when the turn is cancelled', async () => {
    let withdrawn = false
    let asked: () => void = () => {}
    const askedOnce = new Promise<void>((resolve) => {
      asked = resolve
    })
    const { agent, project, envelopes } = await connectAgent(
      [{ blocks: [bash('printf never > never.txt', 'call-w')] }],
      (_request, signal) =>
        new Promise((resolve) => {
          asked()
          signal.addEventListener('abort', () => {
            withdrawn = true
            resolve({ outcome: { outcome: 'cancelled' } })
          })
        }),
    )
    const session = await startSession(agent, project)
    void session.prompt('make it')
    await askedOnce
    await agent.notify(methods.agent.session.cancel, { sessionId: session.sessionId })
    const { stopReason } = await drain(session)
    expect(stopReason).toBe('cancelled')
    expect(withdrawn).toBe(true)
    expect(existsSync(join(project, 'never.txt'))).toBe(false)
    // The late "cancelled" answer is not sent to the engine as an answer to a settled card.
    await new Promise((resolve) => setTimeout(resolve, 150))
    const notices = envelopes.filter((envelope) => envelope.event.type === 'notice')
    expect(JSON.stringify(notices)).not.toContain('No pending approval')
  })
})
