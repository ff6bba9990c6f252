import { estimateMessagesTokens, isClearedResult, type PlannedClear, SUMMARY_LABEL } from '@z-engine/context'
import type { Message } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { runSummaryJob, type SummaryJobInput } from './compaction-job.js'
import { relieveContext } from './relieve.js'

/** A transcript of `turns` turns with `rounds` tool rounds each; results of `chars` characters. */
function transcript(turns: number, rounds: number, chars: number): Message[] {
  const messages: Message[] = []
  let id = 0
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ id: `m${id++}`, role: 'user', content: [{ type: 'text', text: `task ${turn}` }] })
    for (let round = 0; round < rounds; round++) {
      const call = `call${turn}-${round}`
      messages.push({
        id: `m${id++}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id: call, name: 'Bash', input: { command: 'ls' } }],
      })
      messages.push({
        id: `m${id++}`,
        role: 'user',
        content: [
          {
            type: 'tool_result',
            toolUseId: call,
            isError: false,
            content: [{ type: 'text', text: 'o'.repeat(chars) }],
          },
        ],
      })
    }
    messages.push({ id: `m${id++}`, role: 'assistant', content: [{ type: 'text', text: `done ${turn}` }] })
  }
  return messages
}

function ids(): () => string {
  let next = 0
  return () => `id${next++}`
}

const state = {
  todos: [{ content: 'ship it', status: 'in_progress' as const }],
  loadedSkills: [{ name: 'release', content: 'Tag, then publish.' }],
}

function jobInput(messages: Message[], complete: SummaryJobInput['complete']): SummaryJobInput {
  return {
    messages,
    windowTokens: 10_000,
    trigger: 'auto',
    instructions: 'Summarize the conversation.',
    complete,
    state,
    tokensBefore: 9_500,
    overheadTokens: 300,
    newId: ids(),
  }
}

describe('runSummaryJob', () => {
  it('stops when a PreCompact hook blocks (Claude Code: PreCompact exit code 2 blocks compaction)', async () => {
    let asked = 0
    const result = await runSummaryJob({
      ...jobInput(transcript(6, 3, 1000), async () => {
        asked++
        return 'summary'
      }),
      onStarted: () => ({ blocked: 'a release is in progress' }),
      trigger: 'auto',
    })
    expect(asked).toBe(0)
    expect(result).toMatchObject({ ok: false, reason: 'blocked' })
    if (!result.ok) expect(result.message).toContain('a release is in progress')
  })

  it('asks the fast model about the older part only and keeps the rest word for word', async () => {
    const messages = transcript(6, 3, 1000)
    const prompts: string[] = []
    let started = 0
    const result = await runSummaryJob({
      ...jobInput(messages, async (prompt) => {
        prompts.push(prompt)
        return 'They listed files six times.'
      }),
      onStarted: () => {
        started++
        return undefined
      },
      focus: 'the file listing',
      trigger: 'manual',
    })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(started).toBe(1)
    expect(prompts).toHaveLength(1)
    expect(prompts[0]!.startsWith('Summarize the conversation.\n\n<transcript>\n[user] task 0')).toBe(true)
    const summarized = result.marker.messagesSummarized
    expect(summarized).toBeGreaterThanOrEqual(2)
    expect(result.messages.slice(1)).toEqual(messages.slice(summarized))
    // the prompt holds the summarized part, not the kept part
    expect(prompts[0]).not.toContain(`task 5`)
    const text =
      result.summaryMessage.content[0]!.type === 'text' ? result.summaryMessage.content[0]!.text : ''
    expect(text).toContain(SUMMARY_LABEL)
    expect(text).toContain('- [in_progress] ship it')
    expect(result.state).toEqual(state)
    expect(result.marker).toMatchObject({ trigger: 'manual', tokensBefore: 9_500, focus: 'the file listing' })
    expect(result.marker.tokensAfter).toBe(300 + estimateMessagesTokens(result.messages))
    expect(result.marker.tokensAfter).toBeLessThan(result.marker.tokensBefore)
  })

  it('returns a warning value when the model fails or answers nothing, and skips tiny transcripts', async () => {
    const messages = transcript(4, 2, 500)
    const failed = await runSummaryJob(
      jobInput(messages, async () => {
        throw new Error('fast model unavailable')
      }),
    )
    expect(failed).toEqual({
      ok: false,
      reason: 'failed',
      message: 'Compaction failed (fast model unavailable); continuing without compacting.',
    })
    const empty = await runSummaryJob(jobInput(messages, async () => '  '))
    expect(empty.ok).toBe(false)
    let asked = false
    const tiny = await runSummaryJob(
      jobInput(messages.slice(0, 2), async () => {
        asked = true
        return 'x'
      }),
    )
    expect(tiny).toMatchObject({ ok: false, reason: 'nothing_to_summarize' })
    expect(asked).toBe(false)
  })
})

describe('relieveContext', () => {
  const measure = (messages: readonly Message[]) => 200 + estimateMessagesTokens(messages)

  it('does nothing under half the window', async () => {
    const messages = transcript(2, 2, 1000)
    const result = await relieveContext({
      messages,
      windowTokens: 1_000_000,
      measure,
      spill: async () => 'unused',
      summarize: async () => {
        throw new Error('not expected')
      },
    })
    expect(result).toEqual({ messages, cleared: 0, summary: null, warnings: [] })
  })

  it('clears old results above half, spilling each original, and stops there when that is enough', async () => {
    const messages = transcript(3, 5, 4000) // 15 results of 1,000 tokens
    const spilled = new Map<string, string>()
    const result = await relieveContext({
      messages,
      windowTokens: 28_000,
      measure,
      spill: async (clear: PlannedClear) => {
        spilled.set(clear.toolUseId, clear.original)
        return `artifacts/${clear.toolUseId}.txt`
      },
      summarize: async () => {
        throw new Error('not expected')
      },
    })
    expect(result.cleared).toBe(7)
    expect(spilled.size).toBe(7)
    expect([...spilled.values()].every((text) => text === 'o'.repeat(4000))).toBe(true)
    expect(result.summary).toBeNull()
    const results = result.messages.flatMap((message) =>
      message.content.flatMap((block) => (block.type === 'tool_result' ? [block] : [])),
    )
    expect(results).toHaveLength(15)
    expect(results.filter(isClearedResult)).toHaveLength(7)
    expect(results.slice(-8).some(isClearedResult)).toBe(false)
  })

  it('summarizes when clearing is not enough, and on overflow runs both whatever the estimate', async () => {
    const messages = transcript(3, 5, 4000)
    const summarized: number[] = []
    const summarize = async (working: readonly Message[], tokensBefore: number) => {
      summarized.push(tokensBefore)
      return runSummaryJob({
        ...jobInput(working.slice(), async () => 'summary'),
        windowTokens: 9_000,
        tokensBefore,
      })
    }
    const pressured = await relieveContext({
      messages,
      windowTokens: 9_000,
      measure,
      spill: async (c) => `a/${c.toolUseId}`,
      summarize,
    })
    expect(pressured.cleared).toBe(7)
    expect(summarized).toHaveLength(1)
    expect(pressured.summary?.ok).toBe(true)
    expect(pressured.messages.length).toBeLessThan(messages.length)

    const overflow = await relieveContext({
      messages,
      windowTokens: 1_000_000,
      measure,
      overflow: true,
      keepRecentToolResults: 2,
      spill: async (c) => `a/${c.toolUseId}`,
      summarize,
    })
    expect(overflow.cleared).toBe(13)
    expect(summarized).toHaveLength(2)
  })

  it('lets the pressure seam drop planned clears', async () => {
    const messages = transcript(1, 12, 2000)
    const result = await relieveContext({
      messages,
      windowTokens: 10_000,
      measure,
      reviewClears: async (planned) => planned.filter((clear) => clear.toolUseId !== 'call0-1'),
      spill: async (clear) => `a/${clear.toolUseId}`,
      summarize: async () => ({ ok: false, reason: 'failed', message: 'x' }),
    })
    expect(result.cleared).toBe(3)
    const kept = result.messages[4]!.content[0]!
    expect(kept.type === 'tool_result' && isClearedResult(kept)).toBe(false)
  })

  it('keeps a result in place when its spill fails', async () => {
    const messages = transcript(1, 10, 2000)
    const result = await relieveContext({
      messages,
      windowTokens: 10_000,
      measure,
      spill: async (clear) => {
        if (clear.toolUseId === 'call0-0') throw new Error('disk full')
        return `a/${clear.toolUseId}`
      },
      summarize: async () => ({ ok: false, reason: 'failed', message: 'x' }),
    })
    expect(result.cleared).toBe(1)
    expect(result.warnings).toEqual([
      'Could not save the output of Bash (call0-0) to artifacts (Error: disk full); kept it in context.',
    ])
  })
})
