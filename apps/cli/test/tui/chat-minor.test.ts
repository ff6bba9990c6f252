import type { EngineEvent, EventEnvelope } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { parseInline, parseMarkdown } from '../../src/tui/markdown.js'
import { reduceEvent } from '../../src/tui/reduce-event.js'
import { initialChatState } from '../../src/tui/view-model.js'
import { KEYS, renderChat, scriptedEngine } from './harness.js'

let seq = 0
const envelope = (event: EngineEvent): EventEnvelope => ({
  seq: seq++,
  sessionId: 's1',
  at: new Date(0).toISOString(),
  event,
})
const start = () => initialChatState({ sessionId: 's1', mode: 'default', model: 'm' })

describe('the todo list in the chat', () => {
  it('marks pending ☐, in progress ◼ in bold and done ☒', () => {
    const state = reduceEvent(
      start(),
      envelope({
        type: 'todosUpdated',
        todos: [
          { content: 'Read the code', status: 'completed' },
          { content: 'Fix the *bug*', status: 'in_progress' },
          { content: 'Run the tests', status: 'pending' },
        ],
      }),
    )
    const entry = state.finished.at(-1)
    expect(entry).toMatchObject({ kind: 'commandOutput', name: 'todos' })
    const markdown = entry?.kind === 'commandOutput' ? entry.markdown : ''
    const lines = parseMarkdown(markdown).map((block) =>
      block.type === 'paragraph' ? block.text : block.type,
    )
    expect(lines).toHaveLength(3)
    expect(parseInline(lines[0] ?? '')).toEqual([{ text: '☒ Read the code', style: 'plain' }])
    expect(parseInline(lines[1] ?? '')).toEqual([{ text: '◼ Fix the ∗bug∗', style: 'bold' }])
    expect(parseInline(lines[2] ?? '')).toEqual([{ text: '☐ Run the tests', style: 'plain' }])
  })
})

describe('a prompt command in the transcript', () => {
  it('shows /review as typed, never its template', async () => {
    const setup = await scriptedEngine([{ blocks: [{ type: 'text', text: 'Looks fine.' }] }])
    const chat = await renderChat(setup)
    await chat.type('/review')
    await chat.type(KEYS.enter)
    const frame = await chat.waitFor((current) => current.includes('Looks fine.'), 'the answer')
    expect(frame).toContain('/review')
    expect(frame).not.toContain('<command')
    expect(frame).not.toContain('</command>')
    // The model still gets the template.
    expect(JSON.stringify(setup.client.requests.at(-1)?.messages)).toContain('<command name=\\"review\\">')
  })
})

describe('a resumed prompt command', () => {
  it('replays /review as typed, never its template', async () => {
    const setup = await scriptedEngine([{ blocks: [{ type: 'text', text: 'Looks fine.' }] }])
    const first = await renderChat(setup)
    await first.type('/review')
    await first.type(KEYS.enter)
    await first.waitFor(
      (current) => current.includes('Looks fine.') && !current.includes('working'),
      'the turn',
    )
    first.unmount()
    const resumed = await renderChat(setup, { resume: first.session.id })
    const frame = await resumed.waitFor(
      (current) => current.includes('Looks fine.'),
      'the replayed transcript',
    )
    expect(frame).toContain('/review')
    expect(frame).not.toContain('<command')
  })
})
