import type { EngineEvent, EventEnvelope } from '@z-engine/protocol'
import { Box } from 'ink'
import { render } from 'ink-testing-library'
import { createElement } from 'react'
import { describe, expect, it } from 'vitest'
import { parseInline, parseMarkdown } from '../../src/tui/markdown.js'
import { reduceEvent } from '../../src/tui/reduce-event.js'
import { elapsedLabel, StatusLine } from '../../src/tui/status-line.js'
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

describe('the status line while a turn runs', () => {
  it('counts seconds, then minutes, then hours', () => {
    expect(elapsedLabel(0)).toBe('0s')
    expect(elapsedLabel(12_400)).toBe('12s')
    expect(elapsedLabel(185_000)).toBe('3m 05s')
    expect(elapsedLabel(3_720_000)).toBe('1h 02m')
  })

  it('shows the elapsed time and keeps the mode visible at 80 columns', () => {
    const state = {
      ...initialChatState({ sessionId: 's1', mode: 'acceptEdits', model: 'anthropic/claude-sonnet-4-6' }),
      busy: true,
      busySince: Date.now() - 12_000,
    }
    const app = render(createElement(Box, { width: 80 }, createElement(StatusLine, { state, width: 80 })))
    const line = (app.lastFrame() ?? '').split('\n').find((row) => row.includes('working')) ?? ''
    app.unmount()
    expect(line).toMatch(/^● working 1[23]s \(esc\) · auto-accept edits \(shift\+tab\) · \$0\.0000$/)
    expect([...line].length).toBeLessThanOrEqual(80)
  })

  it('keeps the cost and the verification badge at 120 columns, shortening the hints and the model first', () => {
    const state = {
      ...initialChatState({ sessionId: 's1', mode: 'acceptEdits', model: 'anthropic/claude-sonnet-4-6' }),
      busy: true,
      busySince: Date.now() - 12_000,
      contextTokens: 24_000,
      contextWindow: 200_000,
      badge: { type: 'verified' as const, checkId: 'typecheck', checks: ['test', 'typecheck'] },
    }
    const frame = (width: number, busy: boolean) => {
      const app = render(
        createElement(Box, { width }, createElement(StatusLine, { state: { ...state, busy }, width })),
      )
      const line = (app.lastFrame() ?? '').split('\n').find((row) => row.includes('auto-accept')) ?? ''
      app.unmount()
      return line
    }
    const busy = frame(120, true)
    expect(busy).toMatch(
      /^● working 1[23]s \(esc\) · auto-accept edits \(shift\+tab\) · context 12% · \$0\.0000 · ✓ verified \(test, typecheck\)$/,
    )
    expect(frame(120, false)).toBe(
      'auto-accept edits (shift+tab) · anthropic/claude-sonnet-4-6 · context 12% · $0.0000 · ✓ verified (test, typecheck)',
    )
    expect(frame(80, false)).toMatch(/· \$0\.0000 · ✓ verified \(test, typecheck\)$/)
  })

  it('starts the clock at turnStarted and stops it at turnFinished', () => {
    let state = reduceEvent(start(), {
      ...envelope({ type: 'turnStarted', turnId: 't1' } as EngineEvent),
      at: new Date(5000).toISOString(),
    })
    expect(state).toMatchObject({ busy: true, busySince: 5000 })
    state = reduceEvent(
      state,
      envelope({ type: 'turnFinished', turnId: 't1', outcome: { type: 'done' } } as EngineEvent),
    )
    expect(state.busy).toBe(false)
    expect(state.busySince).toBeUndefined()
  })
})

describe('retry warnings', () => {
  const retrying = (attempt: number, reason = 'overloaded (529)') =>
    envelope({ type: 'retrying', attempt, delayMs: 1500, reason, maxAttempts: 5 })
  const warnings = (state: ReturnType<typeof start>) =>
    state.finished
      .filter((entry) => entry.kind === 'notice')
      .map((entry) => (entry.kind === 'notice' ? entry.text : ''))

  it('updates one live line for the same failure and prints it once when the answer starts', () => {
    let state = reduceEvent(start(), retrying(1))
    state = reduceEvent(state, retrying(2))
    state = reduceEvent(state, retrying(3))
    expect(warnings(state)).toEqual([])
    expect(state.retry).toMatchObject({ attempt: 3 })
    const app = render(createElement(StatusLine, { state }))
    expect(app.lastFrame()).toContain('⚠ overloaded (529); retrying in 2s (attempt 3/5)')
    app.unmount()
    state = reduceEvent(state, envelope({ type: 'textStart', id: 'p1' }))
    expect(state.retry).toBeUndefined()
    expect(warnings(state)).toEqual(['overloaded (529); retrying in 2s (attempt 3/5)'])
  })

  it('prints the previous failure when another one follows, and the last when the turn ends', () => {
    let state = reduceEvent(start(), retrying(1))
    state = reduceEvent(state, retrying(2, 'connection reset'))
    expect(warnings(state)).toEqual(['overloaded (529); retrying in 2s (attempt 1/5)'])
    state = reduceEvent(
      state,
      envelope({ type: 'turnFinished', turnId: 't1', outcome: { type: 'done' } } as EngineEvent),
    )
    expect(warnings(state)).toEqual([
      'overloaded (529); retrying in 2s (attempt 1/5)',
      'connection reset; retrying in 2s (attempt 2/5)',
    ])
  })
})
