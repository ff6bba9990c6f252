import type { ApprovalRequest, EngineEvent, EventEnvelope } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { promptText, stopReasonOf } from '../../src/acp/acp-agent.js'
import { decisionFor, permissionOptions } from '../../src/acp/permission-options.js'
import { SessionUpdateMapper } from '../../src/acp/session-updates.js'
import { transcriptUpdates } from '../../src/acp/transcript-updates.js'

const request = (suggestion?: ApprovalRequest['suggestion']): ApprovalRequest => ({
  id: 'a1',
  toolUseId: 't1',
  toolName: 'Edit',
  title: 'Allow Edit of src/a.ts?',
  reason: 'edits ask in default mode',
  preview: { type: 'diff', path: 'src/a.ts', unifiedDiff: '-old\n+new' },
  ...(suggestion ? { suggestion } : {}),
})

const envelope = (event: EngineEvent, agentId?: string): EventEnvelope => ({
  seq: 0,
  sessionId: 's',
  at: new Date(0).toISOString(),
  event,
  ...(agentId ? { agentId } : {}),
})

describe('permission mapping', () => {
  it('offers rules by scope: project, session only, none', () => {
    expect(
      permissionOptions(request({ rule: 'Edit(src/**)', scope: 'project' })).map((option) => option.optionId),
    ).toEqual(['allowOnce', 'allowSession', 'allowProject', 'deny'])
    expect(
      permissionOptions(request({ rule: 'Edit(/tmp/x)', scope: 'session' })).map((option) => option.optionId),
    ).toEqual(['allowOnce', 'allowSession', 'deny'])
    expect(permissionOptions(request()).map((option) => option.optionId)).toEqual(['allowOnce', 'deny'])
  })
  it('names every rule an "always" grants for a compound line', () => {
    const compound = request({
      rule: 'Bash(npm test:*)',
      rules: ['Bash(npm test:*)', 'Bash(make:*)'],
      scope: 'project',
    })
    expect(permissionOptions(compound).map((option) => option.name)).toContain(
      'Always allow in this project (Bash(npm test:*), Bash(make:*))',
    )
  })
  it('maps answers to decisions and fails closed', () => {
    const withRule = request({ rule: 'Edit(src/**)', scope: 'project' })
    expect(decisionFor(withRule, { outcome: 'selected', optionId: 'allowProject' })).toEqual({
      type: 'allowProject',
      rule: 'Edit(src/**)',
    })
    expect(decisionFor(withRule, { outcome: 'selected', optionId: 'allowSession' })).toEqual({
      type: 'allowSession',
      rule: 'Edit(src/**)',
    })
    expect(decisionFor(withRule, { outcome: 'cancelled' })).toMatchObject({ type: 'deny' })
    // An option the card did not offer (no rule for a protected path) is a deny, never an allow.
    expect(decisionFor(request(), { outcome: 'selected', optionId: 'allowProject' })).toEqual({
      type: 'deny',
    })
    expect(decisionFor(request(), { outcome: 'selected', optionId: 'made-up' })).toEqual({ type: 'deny' })
  })
})

describe('session updates', () => {
  it('announces an asked call as pending, then updates it through to completed', () => {
    const mapper = new SessionUpdateMapper()
    expect(mapper.announceApproval(request())).toMatchObject([
      { sessionUpdate: 'tool_call', toolCallId: 't1', status: 'pending', kind: 'edit' },
    ])
    expect(
      mapper.map(
        envelope({
          type: 'toolStarted',
          toolUseId: 't1',
          toolName: 'Edit',
          title: 'Edit src/a.ts',
          input: {},
        }),
      ),
    ).toMatchObject([{ sessionUpdate: 'tool_call_update', status: 'in_progress' }])
    expect(
      mapper.map(
        envelope({ type: 'toolFinished', toolUseId: 't1', toolName: 'Edit', status: 'ok', durationMs: 3 }),
      ),
    ).toMatchObject([{ sessionUpdate: 'tool_call_update', status: 'completed' }])
  })
  it('reports a call denied before it started as a failed tool_call, with the reason', () => {
    const mapper = new SessionUpdateMapper()
    expect(
      mapper.map(
        envelope({
          type: 'toolFinished',
          toolUseId: 't9',
          toolName: 'Bash',
          status: 'denied',
          durationMs: 0,
          summary: 'denied by rule',
        }),
      ),
    ).toMatchObject([
      {
        sessionUpdate: 'tool_call',
        toolCallId: 't9',
        status: 'failed',
        content: [{ type: 'content', content: { type: 'text', text: 'denied by rule' } }],
      },
    ])
  })
  it("streams the main agent's text and thinking, not a subagent's", () => {
    const mapper = new SessionUpdateMapper()
    expect(mapper.map(envelope({ type: 'textDelta', id: 'p', delta: 'hi' }))).toEqual([
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } },
    ])
    expect(mapper.map(envelope({ type: 'thinkingDelta', id: 'p', delta: 'hm' }))).toEqual([
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hm' } },
    ])
    expect(mapper.map(envelope({ type: 'textDelta', id: 'p', delta: 'sub' }, 'agent-1'))).toEqual([])
  })
})

describe('prompts and stop reasons', () => {
  it('joins text and names linked resources', () => {
    expect(
      promptText([
        { type: 'text', text: 'look at' },
        { type: 'resource_link', uri: 'file:///repo/a.ts', name: 'a.ts' },
      ]),
    ).toBe('look at\n@/repo/a.ts')
  })
  it('maps outcomes and turns a failure into an error', () => {
    expect(stopReasonOf({ type: 'done' })).toBe('end_turn')
    expect(stopReasonOf({ type: 'interrupted' })).toBe('cancelled')
    expect(stopReasonOf({ type: 'budgetExhausted', budget: 'maxTurns' })).toBe('max_turn_requests')
    expect(() => stopReasonOf({ type: 'failed', error: { code: 'model', message: 'overloaded' } })).toThrow(
      'overloaded',
    )
  })
})

describe('session/load replay', () => {
  it('replays a prompt command as typed, never its <command> template', () => {
    const updates = transcriptUpdates([
      {
        kind: 'message',
        recordId: 'r1',
        at: new Date(0).toISOString(),
        origin: 'command',
        message: {
          id: 'm1',
          role: 'user',
          content: [
            { type: 'text', text: '/review src' },
            { type: 'text', text: '<command name="review">\nReview the changes in src.\n</command>' },
          ],
        },
      },
    ])
    expect(updates).toEqual([
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: '/review src' } },
    ])
  })
})
