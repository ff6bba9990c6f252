import type { Message } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import type { SessionSnapshot } from '../src/index.js'
import { INTERRUPTED_RESULT_TEXT, pairToolResults, planRewind } from '../src/index.js'

const use = (id: string) => ({ type: 'tool_use' as const, id, name: 'Read', input: {} })
const result = (id: string) => ({ type: 'tool_result' as const, toolUseId: id, content: [], isError: false })
const text = (value: string) => ({ type: 'text' as const, text: value })
const interrupted = (id: string) => ({
  type: 'tool_result' as const,
  toolUseId: id,
  content: [text(INTERRUPTED_RESULT_TEXT)],
  isError: true,
})

describe('pairToolResults', () => {
  it('returns a valid working set unchanged (same array)', () => {
    const messages: Message[] = [
      { id: '1', role: 'user', content: [text('hi')] },
      { id: '2', role: 'assistant', content: [use('a'), use('b')] },
      { id: '3', role: 'user', content: [result('a'), result('b'), text('steer')] },
    ]
    expect(pairToolResults(messages)).toBe(messages)
  })

  it('orders results by call, drops duplicates and orphans, synthesizes missing ones', () => {
    const messages: Message[] = [
      { id: '0', role: 'user', content: [result('orphan'), text('hi')] },
      { id: '1', role: 'assistant', content: [use('a'), use('b'), use('c')] },
      { id: '2', role: 'user', content: [text('steer'), result('c'), result('a'), result('a')] },
      { id: '3', role: 'assistant', content: [use('d')] },
      { id: '4', role: 'assistant', content: [text('after a crash')] },
      { id: '5', role: 'assistant', content: [use('e')] },
    ]
    expect(pairToolResults(messages)).toEqual([
      { id: '0', role: 'user', content: [text('hi')] },
      messages[1],
      { id: '2', role: 'user', content: [result('a'), interrupted('b'), result('c'), text('steer')] },
      messages[3],
      { id: '3:interrupted-results', role: 'user', content: [interrupted('d')] },
      messages[4],
      messages[5],
      { id: '5:interrupted-results', role: 'user', content: [interrupted('e')] },
    ])
  })
})

describe('planRewind', () => {
  const snapshot = {
    transcript: [
      {
        kind: 'message',
        recordId: 'r1',
        at: 'now',
        message: { id: 'u1', role: 'user', content: [text('one')] },
      },
      {
        kind: 'message',
        recordId: 'r2',
        at: 'now',
        message: { id: 'a1', role: 'assistant', content: [text('ok')] },
      },
    ],
    checkpoints: [{ id: 'cp1', messageId: 'u1', commit: 'abc' }],
  } as unknown as SessionSnapshot

  it('returns the event to commit and, for code, the checkpoint to restore', () => {
    const both = planRewind(snapshot, { messageId: 'u1', scope: 'both' })
    expect(both).toEqual({
      ok: true,
      value: {
        event: { type: 'rewound', messageId: 'u1', scope: 'both', checkpointId: 'cp1' },
        checkpoint: { id: 'cp1', messageId: 'u1', commit: 'abc' },
      },
    })
    const conversation = planRewind(snapshot, { messageId: 'u1', scope: 'conversation' })
    expect(conversation.ok && conversation.value.checkpoint).toBeUndefined()
  })

  it('refuses assistant messages, unknown ids and code rewinds without a checkpoint', () => {
    expect(planRewind(snapshot, { messageId: 'a1', scope: 'conversation' }).ok).toBe(false)
    expect(planRewind(snapshot, { messageId: 'zz', scope: 'both' }).ok).toBe(false)
    const bare = { ...snapshot, checkpoints: [] }
    const result = planRewind(bare, { messageId: 'u1', scope: 'code' })
    expect(!result.ok && result.error.message).toMatch(/rewind the conversation only/)
  })
})
