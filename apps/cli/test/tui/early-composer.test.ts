/**
 * The early prompt box (issue 17): how typed keys are split and folded, that its frame is the real
 * composer's cell for cell, and that the chat takes over what was typed (text, then Enter).
 */
import { Box } from 'ink'
import { render } from 'ink-testing-library'
import { createElement } from 'react'
import { describe, expect, it } from 'vitest'
import { Composer } from '../../src/tui/composer.js'
import { earlyBanner, earlyComposer } from '../../src/tui/early-frame.js'
import { EARLY_KEYS_START, earlyRead, splitKeys } from '../../src/tui/early-keys.js'
import { EntryView } from '../../src/tui/entry-view.js'
import { bufferOf, EMPTY_BUFFER } from '../../src/tui/prompt-buffer.js'
import { StatusLine } from '../../src/tui/status-line.js'
import { initialChatState } from '../../src/tui/view-model.js'
import { renderChat, scriptedEngine } from './harness.js'

const plain = (text: string) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
const text = (value: string) => ({ blocks: [{ type: 'text' as const, text: value }] })
const view = {
  columns: 100,
  version: '0.1.0',
  projectRoot: '/tmp/project',
  mode: 'default',
  model: 'm',
  text: '',
  queued: [],
  warning: false,
  quitting: false,
}

describe('the early prompt box: keys', () => {
  it('splits reads into the keys Ink reports: text runs ending at Enter, escapes, controls, pastes', () => {
    expect(splitKeys('ab\rcd').keys).toEqual(['ab\r', 'cd'])
    expect(splitKeys('x\u001b[Dy\u007f').keys).toEqual(['x', '\u001b[D', 'y', '\u007f'])
    expect(splitKeys('\u001b[200~two\nlines\u001b[201~z').keys).toEqual([
      '\u001b[200~',
      'two\nlines',
      '\u001b[201~',
      'z',
    ])
    const first = splitKeys('\u001b[200~half')
    expect(first).toEqual({ keys: ['\u001b[200~', 'half'], pasting: true })
    expect(splitKeys(' done\u001b[201~', true)).toEqual({ keys: [' done', '\u001b[201~'], pasting: false })
    expect(splitKeys('\u001b').keys).toEqual(['\u001b'])
  })

  it('keeps plain text as the prefix, then everything from Enter on for the composer to replay', () => {
    let state = earlyRead(EARLY_KEYS_START, 'say hellp', 0)
    state = earlyRead(state, '\u007f', 0)
    state = earlyRead(state, 'o', 0)
    expect(state.input).toEqual({ prefix: 'say hello', keys: [], quit: false })
    state = earlyRead(state, '\r', 0)
    state = earlyRead(state, 'next', 0)
    expect(state.input).toEqual({ prefix: 'say hello', keys: ['\r', 'next'], quit: false })
    expect(state).toMatchObject({ text: 'next', queued: ['say hello'], frozen: false })
    // A key the box cannot show (an arrow) stops the echo, never the keeping.
    state = earlyRead(state, '\u001b[D', 0)
    state = earlyRead(state, 'x', 0)
    expect(state).toMatchObject({ text: 'next', frozen: true })
    expect(state.input.keys).toEqual(['\r', 'next', '\u001b[D', 'x'])
  })

  it('Ctrl-C clears the text, then arms, then quits within the window; Ctrl-D on an empty box quits', () => {
    let state = earlyRead(EARLY_KEYS_START, 'draft', 0)
    state = earlyRead(state, '\u0003', 10)
    expect(state.input).toEqual({ prefix: '', keys: [], quit: false })
    state = earlyRead(state, '\u0003', 20)
    expect(state.input.ctrlCAt).toBe(20)
    const late = earlyRead(state, '\u0003', 5000)
    expect(late.input).toMatchObject({ ctrlCAt: 5000, quit: false })
    expect(earlyRead(state, '\u0003', 500).input.quit).toBe(true)
    // Any other key disarms, as in the composer.
    expect(earlyRead(state, 'a', 30).input.ctrlCAt).toBeUndefined()
    expect(earlyRead(EARLY_KEYS_START, '\u0004', 0).input.quit).toBe(true)
    expect(earlyRead(earlyRead(EARLY_KEYS_START, 'a', 0), '\u0004', 0).input.quit).toBe(false)
  })
})

describe('the early prompt box: frame', () => {
  it('draws the banner, the prompt box and the status line as Ink draws the real ones', () => {
    const real = render(
      createElement(
        Box,
        { flexDirection: 'column' },
        createElement(
          Box,
          { paddingX: 1 },
          createElement(EntryView, {
            entry: {
              kind: 'banner',
              key: 'banner',
              version: '0.1.0',
              projectRoot: '/tmp/project',
              sessionId: '4542dc9f-be43-4cec-b132-f8d750a54d2b',
            },
          }),
        ),
        createElement(Composer, { value: EMPTY_BUFFER, matches: [], selected: 0, busy: false }),
        createElement(
          Box,
          { paddingX: 1 },
          createElement(StatusLine, {
            state: initialChatState({ sessionId: 's', mode: 'default', model: 'm' }),
          }),
        ),
      ),
    )
    const early = [...earlyBanner(view), ...earlyComposer(view)].map(plain)
    const frame = (real.lastFrame() ?? '')
      .split('\n')
      .map((line) => line.trimEnd())
      .map((line) => line.replace('4542dc9f-be43-4cec-b132-f8d750a54d2b', 'starting…'.padEnd(36)))
    expect(early.map((line) => line.trimEnd())).toEqual(frame)
    real.unmount()

    const typed = render(
      createElement(Composer, { value: bufferOf('say hi'), matches: [], selected: 0, busy: false }),
    )
    expect(
      earlyComposer({ ...view, text: 'say hi' })
        .slice(0, 3)
        .map(plain),
    ).toEqual((typed.lastFrame() ?? '').split('\n'))
    typed.unmount()
  })

  it('says what it does not know yet, and shows queued prompts and the Ctrl-C warning', () => {
    const { mode: _mode, model: _model, ...unknown } = view
    const lines = earlyComposer({ ...unknown, queued: ['one'], warning: true })
    expect(lines.map(plain).slice(3)).toEqual([' ⏎ queued: one', ' Press Ctrl-C again to quit · starting…'])
    expect(earlyBanner({ ...view, columns: 40 })).toEqual([])
  })
})

describe('the chat taking over from the early prompt box', () => {
  it('starts with the typed text and replays Enter and the keys after it', async () => {
    const setup = await scriptedEngine([text('Hello back.')])
    const chat = await renderChat(setup, {}, { prefix: 'say hello', keys: ['\r', 'draft'] })
    const frame = await chat.waitFor((current) => current.includes('Hello back.'), 'the answer')
    expect(frame).toContain('› say hello')
    await chat.waitFor((current) => current.includes('› draft'), 'the text typed after Enter')
    expect(JSON.stringify(setup.client.requests[0]?.messages)).toContain('say hello')
  })

  it('keeps the Ctrl-C warning armed in the box', async () => {
    const setup = await scriptedEngine([])
    // A stopped clock: the 2 s window must not run out while a busy machine mounts the chat.
    const clock = Date.now()
    const chat = await renderChat(setup, {}, { prefix: '', keys: [], ctrlCAt: clock }, () => clock)
    await chat.waitFor((current) => current.includes('Press Ctrl-C again to quit'), 'the warning')
    await chat.type('\u0003')
    expect(chat.exits()).toBe(1)
  })
})
