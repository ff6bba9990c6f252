import { methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import { connectAgent, drain, startSession } from './harness.js'

const text = (value: string) => ({ blocks: [{ type: 'text' as const, text: value }] })
const allowOnce = () => ({ outcome: { outcome: 'selected' as const, optionId: 'allowOnce' } })
/** A 1×1 PNG. */
const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

describe('z-engine acp image prompts (spec 004 "ACP editor bridge")', () => {
  it('offers image prompts in its capabilities', async () => {
    const { agent } = await connectAgent([], allowOnce)
    const init = await agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION })
    expect(init.agentCapabilities?.promptCapabilities).toMatchObject({ image: true, audio: false })
  })

  it('an image in session/prompt reaches a vision model as an image block, and replays on load', async () => {
    const first = await connectAgent([text('A red pixel.')], allowOnce, {}, {}, 'anthropic/claude-sonnet-4-6')
    const session = await startSession(first.agent, first.project)
    void session.prompt([
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image', mimeType: 'image/png', data: PIXEL },
    ])
    expect((await drain(session)).stopReason).toBe('end_turn')
    const sent = first.model.requests.at(-1)?.messages.at(-1)
    expect(sent?.role).toBe('user')
    expect(sent?.content).toContainEqual({
      type: 'image',
      source: { type: 'base64', mediaType: 'image/png', data: PIXEL },
    })
    expect(JSON.stringify(sent?.content)).toContain('What is in this picture?')
    const sessionId = session.sessionId
    await first.engine.shutdown()

    const second = await connectAgent([], allowOnce, {}, { home: first.home, project: first.project })
    await second.agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION })
    await second.agent.request(methods.agent.session.load, { sessionId, cwd: second.project, mcpServers: [] })
    const replayed = second.notifications.map((notification) => notification.update)
    expect(replayed).toContainEqual({
      sessionUpdate: 'user_message_chunk',
      content: { type: 'image', mimeType: 'image/png', data: PIXEL },
    })
  })

  it('an image-only prompt is accepted', async () => {
    const { agent, project, model } = await connectAgent([text('A pixel.')], allowOnce)
    const session = await startSession(agent, project)
    const response = await session.prompt([{ type: 'image', mimeType: 'image/png', data: PIXEL }])
    expect(response.stopReason).toBe('end_turn')
    expect(JSON.stringify(model.requests.at(-1)?.messages.at(-1)?.content)).toContain(PIXEL)
  })

  it('a model without image input refuses the prompt with a clear error and runs no turn', async () => {
    const { agent, project, model, envelopes } = await connectAgent(
      [text('unused')],
      allowOnce,
      {},
      {},
      'openai/o3-mini',
    )
    const session = await startSession(agent, project)
    await expect(
      session.prompt([
        { type: 'text', text: 'look' },
        { type: 'image', mimeType: 'image/png', data: PIXEL },
      ]),
    ).rejects.toThrow(/openai\/o3-mini does not take image input/)
    expect(model.requests).toHaveLength(0)
    expect(envelopes.some((envelope) => envelope.event.type === 'turnStarted')).toBe(false)
    // The same session still takes text.
    const response = await session.prompt('just text then')
    expect(response.stopReason).toBe('end_turn')
  })

  it('an image of an unsupported type is refused by name', async () => {
    const { agent, project } = await connectAgent([], allowOnce)
    const session = await startSession(agent, project)
    await expect(session.prompt([{ type: 'image', mimeType: 'image/tiff', data: PIXEL }])).rejects.toThrow(
      /PNG, JPEG, GIF or WebP; this one is image\/tiff/,
    )
  })
})
