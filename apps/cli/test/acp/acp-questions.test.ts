/**
 * The engine's questions over ACP: AskUserQuestion as a form for clients that fill in forms
 * (`elicitation/create`), else as one permission request per question; ExitPlanMode as a permission
 * request whose choices start the work with edits accepted or asked, or keep planning.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import { connectAgent, drain, startSession } from './harness.js'

const text = (value: string) => ({ blocks: [{ type: 'text' as const, text: value }] })
const ask = {
  blocks: [
    {
      type: 'tool_use' as const,
      id: 'ask-1',
      name: 'AskUserQuestion',
      input: {
        questions: [
          {
            question: 'Which database?',
            header: 'DB',
            options: [
              { label: 'Postgres', description: 'relational' },
              { label: 'SQLite', description: 'a file' },
            ],
            multiSelect: false,
          },
          {
            question: 'Which extras?',
            header: 'Extras',
            options: [
              { label: 'Backups', description: 'nightly' },
              { label: 'Metrics', description: 'prometheus' },
            ],
            multiSelect: true,
          },
        ],
      },
    },
  ],
}
const toolResultOf = (requests: ReadonlyArray<{ messages: unknown }>) =>
  JSON.stringify(requests.at(-1)?.messages)

describe('questions and plans over ACP', () => {
  it('asks a form when the client fills in forms, and answers with its choices', async () => {
    const { agent, project, forms, model, permissionRequests } = await connectAgent(
      [ask, text('Noted.')],
      () => ({ outcome: { outcome: 'cancelled' } }),
      {},
      {},
      undefined,
      () => ({
        action: 'accept',
        content: { q1: 'SQLite', q2: ['Backups', 'Metrics', 'Bogus'], q2_other: 'logs' },
      }),
    )
    await agent.request(methods.agent.initialize, {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: { elicitation: { form: {} } },
    })
    const session = await agent.buildSession(project).start()
    void session.prompt('set up a db')
    expect((await drain(session)).stopReason).toBe('end_turn')
    expect(permissionRequests).toHaveLength(0)
    expect(forms).toHaveLength(1)
    expect(forms[0]).toMatchObject({
      mode: 'form',
      toolCallId: 'ask-1',
      message: 'The agent has 2 questions.',
    })
    expect(JSON.stringify(forms[0])).toContain('"oneOf"')
    expect(JSON.stringify(forms[0])).toContain('"anyOf"')
    const result = toolResultOf(model.requests)
    expect(result).toContain('SQLite')
    expect(result).toContain('Backups')
    expect(result).toContain('Metrics')
    expect(result).toContain('logs')
    expect(result).not.toContain('Bogus')
  })

  it('without forms, asks each question as a permission request', async () => {
    const { agent, project, model, permissionRequests } = await connectAgent(
      [ask, text('Noted.')],
      (request) => ({
        outcome: {
          outcome: 'selected',
          optionId: request.toolCall.title === 'Which database?' ? 'choice0' : 'choice1',
        },
      }),
    )
    const session = await startSession(agent, project)
    void session.prompt('set up a db')
    expect((await drain(session)).stopReason).toBe('end_turn')
    expect(permissionRequests.map((request) => request.toolCall.title)).toEqual([
      'Which database?',
      'Which extras?',
    ])
    expect(permissionRequests[0]?.options.map((option) => option.name)).toEqual([
      'Postgres',
      'SQLite',
      'Skip the question',
    ])
    const result = toolResultOf(model.requests)
    expect(result).toContain('Postgres')
    expect(result).toContain('Metrics')
  })

  it('a skipped question dismisses them, and the turn goes on', async () => {
    const { agent, project, model, envelopes } = await connectAgent([ask, text('Fine.')], () => ({
      outcome: { outcome: 'selected', optionId: 'skip' },
    }))
    const session = await startSession(agent, project)
    void session.prompt('set up a db')
    expect((await drain(session)).stopReason).toBe('end_turn')
    const answered = envelopes.find((envelope) => envelope.event.type === 'questionAnswered')?.event
    expect(answered).toMatchObject({ response: { type: 'dismissed' } })
    expect(model.requests).toHaveLength(2)
  })

  it('approves a plan into acceptEdits, and the edit then runs without asking', async () => {
    const { agent, project, permissionRequests, notifications } = await connectAgent(
      [
        {
          blocks: [
            {
              type: 'tool_use',
              id: 'plan-1',
              name: 'ExitPlanMode',
              input: { plan: '# Plan\n1. Write a.txt' },
            },
          ],
        },
        {
          blocks: [
            { type: 'tool_use', id: 'w-1', name: 'Write', input: { file_path: 'a.txt', content: 'a\n' } },
          ],
        },
        text('Done.'),
      ],
      () => ({ outcome: { outcome: 'selected', optionId: 'acceptEdits' } }),
    )
    const session = await startSession(agent, project)
    await agent.request(methods.agent.session.setMode, { sessionId: session.sessionId, modeId: 'plan' })
    void session.prompt('plan it, then do it')
    expect((await drain(session)).stopReason).toBe('end_turn')
    expect(permissionRequests).toHaveLength(1)
    expect(permissionRequests[0]?.toolCall).toMatchObject({ kind: 'switch_mode', title: 'Ready to code?' })
    expect(JSON.stringify(permissionRequests[0]?.toolCall.content)).toContain('1. Write a.txt')
    expect(existsSync(join(project, 'a.txt'))).toBe(true)
    expect(
      notifications.some(
        (notification) =>
          notification.update.sessionUpdate === 'current_mode_update' &&
          notification.update.currentModeId === 'acceptEdits',
      ),
    ).toBe(true)
  })

  it('keeps planning when the client says no', async () => {
    const { agent, project, model, envelopes } = await connectAgent(
      [
        {
          blocks: [
            {
              type: 'tool_use',
              id: 'plan-1',
              name: 'ExitPlanMode',
              input: { plan: '# Plan\n1. Delete it all' },
            },
          ],
        },
        text('Back to planning.'),
      ],
      () => ({ outcome: { outcome: 'selected', optionId: 'keepPlanning' } }),
    )
    const session = await startSession(agent, project)
    await agent.request(methods.agent.session.setMode, { sessionId: session.sessionId, modeId: 'plan' })
    void session.prompt('plan it')
    expect((await drain(session)).stopReason).toBe('end_turn')
    const resolved = envelopes.find((envelope) => envelope.event.type === 'planResolved')?.event
    expect(resolved).toMatchObject({ decision: { type: 'reject' } })
    expect(model.requests).toHaveLength(2)
  })
})
