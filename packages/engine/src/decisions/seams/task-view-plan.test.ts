import { SUMMARY_LABEL } from '@z-engine/context'
import type { Message } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import {
  applyTaskView,
  buildTaskView,
  isTaskViewIndex,
  planTaskView,
  TASK_VIEW_MAX_CANDIDATES,
  TASK_VIEW_MIN_TOKENS,
} from './task-view-plan.js'

// Half the threshold per prompt (about four characters a token): two make a history long enough.
const PAD = 'x'.repeat(TASK_VIEW_MIN_TOKENS * 2)

const user = (id: string, text: string): Message => ({ id, role: 'user', content: [{ type: 'text', text }] })
const answer = (id: string, text: string): Message => ({
  id,
  role: 'assistant',
  content: [{ type: 'text', text }],
})
const call = (id: string, toolUseId: string, name = 'Read'): Message => ({
  id,
  role: 'assistant',
  content: [{ type: 'tool_use', id: toolUseId, name, input: {} }],
})
const result = (id: string, toolUseId: string): Message => ({
  id,
  role: 'user',
  content: [{ type: 'tool_result', toolUseId, content: [{ type: 'text', text: 'ok' }], isError: false }],
})

function plan(messages: Message[]) {
  const planned = planTaskView(messages)
  if (planned.kind !== 'plan') throw new Error(planned.reason)
  return planned
}

describe('planTaskView', () => {
  it('skips a short history, and one with too few earlier exchanges', () => {
    expect(planTaskView([user('a', 'hi'), answer('b', 'hello')]).kind).toBe('skip')
    expect(
      planTaskView([user('a', PAD), answer('b', 'ok'), user('c', PAD), answer('d', 'ok')]),
    ).toMatchObject({
      kind: 'skip',
    })
  })

  it('never splits a tool call from its result, even around a message the user sent meanwhile', () => {
    const messages = [
      user('a', `first ${PAD}`),
      call('b', 't1'),
      // Steering that arrived as its own message while t1 waited: not an exchange boundary.
      user('c', 'also check the tests'),
      result('d', 't1'),
      answer('e', 'done'),
      user('f', `second ${PAD}`),
      answer('g', 'ok'),
      user('h', 'third'),
      answer('i', 'ok'),
      user('j', 'fourth'),
      answer('k', 'ok'),
    ]
    const planned = plan(messages)
    expect(planned.exchanges.map((exchange) => exchange.messages.map((message) => message.id))).toEqual([
      ['a', 'b', 'c', 'd', 'e'],
      ['f', 'g'],
      ['h', 'i'],
      ['j', 'k'],
    ])
    expect(planned.candidates.map((exchange) => exchange.id)).toEqual(['a', 'f'])
    const view = buildTaskView(planned, ['f'], { viewId: 'v', indexId: 'idx' })!
    expect(view.keptMessageIds).toEqual(['f', 'g', 'h', 'i', 'j', 'k'])
    const kept = applyTaskView(messages, view)
    expect(kept[0]?.id).toBe('idx')
    expect(isTaskViewIndex(kept[0])).toBe(true)
  })

  it('always keeps a compaction summary and exchanges that loaded a skill; strict about advice', () => {
    const messages = [
      user('s', `${SUMMARY_LABEL}\n${PAD}`),
      user('a', 'load it'),
      call('b', 't1', 'Skill'),
      result('c', 't1'),
      answer('d', 'loaded'),
      user('e', PAD),
      answer('f', 'ok'),
      user('g', PAD),
      answer('h', 'ok'),
      user('i', 'latest one'),
      answer('j', 'ok'),
      user('k', 'latest two'),
      answer('l', 'ok'),
    ]
    const planned = plan(messages)
    expect(planned.candidates.map((exchange) => exchange.id)).toEqual(['e', 'g'])
    expect(buildTaskView(planned, ['nope'], { viewId: 'v', indexId: 'idx' })).toBeUndefined()
    // Keeping every candidate leaves nothing out: no view.
    expect(buildTaskView(planned, ['e', 'g'], { viewId: 'v', indexId: 'idx' })).toBeUndefined()
    const view = buildTaskView(planned, [], { viewId: 'v', indexId: 'idx' })!
    expect(view.keptMessageIds).toEqual(['s', 'a', 'b', 'c', 'd', 'i', 'j', 'k', 'l'])
  })

  it('offers only the latest earlier exchanges; older ones stay, never left out undecided', () => {
    const messages = Array.from({ length: TASK_VIEW_MAX_CANDIDATES + 10 }, (_, index) => [
      user(`u${index}`, index < 2 ? PAD : `prompt ${index}`),
      answer(`a${index}`, 'ok'),
    ]).flat()
    const planned = plan(messages)
    expect(planned.candidates).toHaveLength(TASK_VIEW_MAX_CANDIDATES)
    expect(planned.candidates[0]?.id).toBe('u8')
    const view = buildTaskView(planned, [], { viewId: 'v', indexId: 'idx' })!
    expect(view.keptMessageIds.slice(0, 2)).toEqual(['u0', 'a0'])
    expect(view.keptMessageIds).toHaveLength(2 * 8 + 2 * 2)
  })

  it('a later view folds the index of the view in use into its own', () => {
    const messages = [
      user('a', `alpha ${PAD}`),
      answer('b', 'ok'),
      user('c', `beta ${PAD}`),
      answer('d', 'ok'),
      user('e', 'gamma'),
      answer('f', 'ok'),
      user('g', 'delta'),
      answer('h', 'ok'),
    ]
    const first = buildTaskView(plan(messages), ['c'], { viewId: 'v1', indexId: 'i1' })!
    const reduced = [
      ...applyTaskView(messages, first),
      user('k', `epsilon ${PAD}`),
      answer('l', 'ok'),
      user('m', 'zeta'),
      answer('n', 'ok'),
    ]
    const second = plan(reduced)
    // The old index is neither kept nor offered; what it listed is carried over.
    expect(second.candidates.map((exchange) => exchange.id)).toEqual(['c', 'e', 'g'])
    const view = buildTaskView(second, ['g'], { viewId: 'v2', indexId: 'i2' })!
    expect(view.keptMessageIds).toEqual(['g', 'h', 'k', 'l', 'm', 'n'])
    const index = view.indexMessage?.content[0]
    const text = index?.type === 'text' ? index.text : ''
    expect(text.match(/^- /gm)).toHaveLength(3)
    expect(text).toContain('"alpha')
    expect(text).toContain('"beta')
    expect(text).toContain('"gamma')
  })
})
