import type { Message } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { measureWorkingSet } from './agent-relief.js'
import { runSummaryJob } from './compaction-job.js'

const text = (id: string, role: 'user' | 'assistant', chars: number): Message => ({
  id,
  role,
  content: [{ type: 'text', text: 'x'.repeat(chars) }],
})

describe('compaction uses the provider-reported usage when present, not only local estimates', () => {
  const sent = [text('a', 'user', 400), text('b', 'assistant', 400)]

  it('adds estimates for messages after the reported request to the provider figure', () => {
    const working = [...sent, text('c', 'user', 400)]
    // Estimated: 100 overhead + 3 × 100 tokens; reported: 50,000 + the new message's 100.
    expect(measureWorkingSet(working, 100, undefined)).toBe(400)
    expect(measureWorkingSet(working, 100, { promptTokens: 50_000, messages: sent })).toBe(50_100)
  })

  it('falls back to estimates when the working set no longer starts with what was sent, or no report', () => {
    const cleared = [text('a', 'user', 400), sent[1]!, text('c', 'user', 400)]
    expect(measureWorkingSet(cleared, 100, { promptTokens: 50_000, messages: sent })).toBe(400)
    expect(measureWorkingSet(sent, 100, { promptTokens: 0, messages: sent })).toBe(300)
    // A report below the local estimate never delays relief.
    expect(measureWorkingSet(sent, 100, { promptTokens: 10, messages: sent })).toBe(300)
  })
})

describe('a compaction that does not shrink the context is not applied', () => {
  it('returns no_gain and leaves the working set alone when the summary is not smaller', async () => {
    const messages = [
      text('a', 'user', 40),
      text('b', 'assistant', 40),
      text('c', 'user', 40),
      text('d', 'assistant', 40),
    ]
    let next = 0
    const result = await runSummaryJob({
      messages,
      windowTokens: 10_000,
      trigger: 'auto',
      instructions: 'Summarize.',
      complete: async () => 'A very long summary. '.repeat(200),
      state: { todos: [], loadedSkills: [] },
      tokensBefore: 9_500,
      overheadTokens: 300,
      newId: () => `id${next++}`,
    })
    expect(result).toMatchObject({ ok: false, reason: 'no_gain' })
    if (!result.ok)
      expect(result.message).toMatch(/would not shrink the context \(about \d+ tokens before, \d+ after\)/)
  })
})

describe('loaded skills survive a summary', () => {
  it('carries the instructions of skills loaded in the summarized part', async () => {
    const skillCall: Message = {
      id: 'b',
      role: 'assistant',
      content: [{ type: 'tool_use', id: 't1', name: 'Skill', input: { skill: 'release' } }],
    }
    const skillResult: Message = {
      id: 'c',
      role: 'user',
      content: [
        {
          type: 'tool_result',
          toolUseId: 't1',
          isError: false,
          content: [{ type: 'text', text: 'Tag, then publish.' }],
        },
      ],
    }
    const messages = [
      text('a', 'user', 8_000),
      skillCall,
      skillResult,
      text('d', 'assistant', 8_000),
      text('e', 'user', 4_000),
      text('f', 'assistant', 4_000),
    ]
    let next = 0
    const result = await runSummaryJob({
      messages,
      windowTokens: 10_000,
      trigger: 'auto',
      instructions: 'Summarize.',
      complete: async () => 'Loaded release.',
      state: { todos: [], loadedSkills: [] },
      tokensBefore: 9_500,
      overheadTokens: 300,
      newId: () => `id${next++}`,
      keepRecentTokens: 1_500,
    })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.state.loadedSkills).toEqual([{ name: 'release', content: 'Tag, then publish.' }])
    expect(JSON.stringify(result.summaryMessage)).toContain(
      '<loaded-skill name=\\"release\\">\\nTag, then publish.\\n</loaded-skill>',
    )
  })
})
