/**
 * Issue 39's small items in the chat, through the real chat screen, controller and engine session
 * (the model scripted): a plan-mode denial says why and how to leave plan mode.
 */
import { describe, expect, it } from 'vitest'
import { KEYS, renderChat, scriptedEngine } from './harness.js'

const text = (value: string) => ({ blocks: [{ type: 'text' as const, text: value }] })

describe('a call denied in plan mode', () => {
  it('shows the reason under its card, and how to leave plan mode', async () => {
    const setup = await scriptedEngine([
      {
        blocks: [
          { type: 'tool_use', id: 'w1', name: 'Write', input: { file_path: 'notes.txt', content: 'hi\n' } },
        ],
      },
      text('I will propose a plan instead.'),
    ])
    const chat = await renderChat(setup, { mode: 'plan' })
    await chat.type('write the notes', KEYS.enter)
    const frame = await chat.waitFor((current) => current.includes('I will propose a plan'), 'the answer')
    expect(frame).toContain('denied')
    expect(frame).toMatch(/⎿ plan mode is read-only/)
    expect(frame.replace(/\s+/g, ' ')).toContain('Shift+Tab leaves plan mode')
  })
})
