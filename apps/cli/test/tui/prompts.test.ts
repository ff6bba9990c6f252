import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { KEYS, renderChat, scriptedEngine } from './harness.js'

const text = (value: string) => ({ blocks: [{ type: 'text' as const, text: value }] })

describe('question and plan prompts', () => {
  it('answers AskUserQuestion with an option, then with typed text', async () => {
    const ask = {
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
            question: 'Which port?',
            header: 'Port',
            options: [
              { label: '5432', description: 'default' },
              { label: '5433', description: 'the next one' },
            ],
            multiSelect: false,
          },
        ],
      },
    }
    const setup = await scriptedEngine([{ blocks: [ask] }, text('Noted.')])
    const chat = await renderChat(setup)
    await chat.type('set up a db', KEYS.enter)
    await chat.waitFor(
      (frame) => frame.includes('Which database?') && frame.includes('2. SQLite'),
      'the question',
    )
    await chat.type('2')
    await chat.waitFor((frame) => frame.includes('Which port?'), 'the second question')
    await chat.type('6543', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('Noted.'), 'the answer after the questions')
    // The transcript keeps what the user chose, under the question's card.
    expect(chat.frame()).toContain('⎿ Answered: Which database? SQLite · Which port? 6543')
    // …and so does the resumed session.
    await chat.waitFor((frame) => !frame.includes('working'), 'the turn to finish')
    chat.unmount()
    const resumed = await renderChat(setup, { resume: chat.session.id })
    await resumed.waitFor(
      (frame) => frame.includes('⎿ Answered: Which database? SQLite · Which port? 6543'),
      'the answer in the resumed transcript',
    )
    const answered = setup.envelopes.find((envelope) => envelope.event.type === 'questionAnswered')?.event
    expect(answered).toMatchObject({
      response: {
        type: 'answered',
        answers: [
          { question: 'Which database?', selected: ['SQLite'] },
          { question: 'Which port?', selected: [], other: '6543' },
        ],
      },
    })
  })

  it('reviews a plan: rejects with feedback, then approves into acceptEdits', async () => {
    const plan = (markdown: string, id: string) => ({
      blocks: [{ type: 'tool_use' as const, id, name: 'ExitPlanMode', input: { plan: markdown } }],
    })
    const setup = await scriptedEngine([
      plan('# Plan\n1. Do **A**', 'plan-1'),
      plan('# Plan\n1. Do **B**', 'plan-2'),
      text('Carrying it out.'),
    ])
    const chat = await renderChat(setup, { mode: 'plan' })
    expect(chat.frame()).toContain('plan mode')
    await chat.type('plan it', KEYS.enter)
    await chat.waitFor(
      (frame) => frame.includes('Ready to code?') && frame.includes('1. Do A'),
      'the first plan',
    )
    await chat.type('n')
    await chat.waitFor((frame) => frame.includes('What should change?'), 'the feedback line')
    await chat.type('use B', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('1. Do B'), 'the revised plan')
    expect(JSON.stringify(setup.client.requests.at(-1)?.messages)).toContain('use B')
    await chat.type('a')
    await chat.waitFor((frame) => frame.includes('Carrying it out.'), 'the work after approval')
    await chat.waitFor((frame) => frame.includes('auto-accept edits'), 'the new mode in the status line')
    expect(chat.session.mode).toBe('acceptEdits')
  })

  it('offers only a session rule for a target outside the project', async () => {
    const setup = await scriptedEngine([
      {
        blocks: [
          {
            type: 'tool_use' as const,
            id: 'w-out',
            name: 'Write',
            input: { file_path: '/tmp/ze-outside.txt', content: 'x' },
          },
        ],
      },
      text('done'),
    ])
    const chat = await renderChat(setup)
    await chat.type('write outside', KEYS.enter)
    const card = await chat.waitFor((frame) => frame.includes('[y] Yes, once'), 'the card')
    const request = setup.envelopes.find((envelope) => envelope.event.type === 'approvalRequested')?.event
    if (request?.type !== 'approvalRequested') throw new Error('no approval requested')
    expect(request.request.suggestion?.scope).toBe('session')
    expect(card).toContain('[a] Yes, always in this chat')
    expect(card).not.toContain('[p]')
    await chat.type('n', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('done'), 'the end of the turn')
  })

  it('offers no rule for a protected path', async () => {
    const setup = await scriptedEngine([
      {
        blocks: [
          {
            type: 'tool_use' as const,
            id: 'w-mcp',
            name: 'Write',
            input: { file_path: '.mcp.json', content: '{}' },
          },
        ],
      },
      text('done'),
    ])
    const chat = await renderChat(setup)
    await chat.type('write the mcp file', KEYS.enter)
    const card = await chat.waitFor((frame) => frame.includes('[y] Yes, once'), 'the card')
    expect(card).toContain('.mcp.json')
    expect(card).not.toContain('[a]')
    expect(card).not.toContain('[p]')
    expect(card).toContain('[n] No')
    await chat.type('y')
    await chat.waitFor((frame) => frame.includes('done'), 'the end of the turn')
  })

  it('shows the diff of a file change and applies it when allowed', async () => {
    const setup = await scriptedEngine([
      {
        blocks: [
          {
            type: 'tool_use' as const,
            id: 'w-1',
            name: 'Write',
            input: { file_path: 'notes.md', content: 'first line\nsecond line\n' },
          },
        ],
      },
      text('Written.'),
    ])
    const chat = await renderChat(setup)
    await chat.type('write notes', KEYS.enter)
    const card = await chat.waitFor((frame) => frame.includes('[y] Yes, once'), 'the card')
    expect(card).toContain('notes.md')
    expect(card).toContain('+first line')
    expect(card).toContain('+second line')
    await chat.type('y')
    await chat.waitFor((frame) => frame.includes('Written.'), 'the end of the turn')
    expect(readFileSync(join(setup.project, 'notes.md'), 'utf8')).toBe('first line\nsecond line\n')
  })

  it('starts a new question request afresh after the previous one was cancelled mid-way', async () => {
    const question = (text: string, labels: [string, string]) => ({
      question: text,
      header: 'Q',
      options: labels.map((label) => ({ label, description: label })),
      multiSelect: false,
    })
    const ask = (id: string, questions: unknown[]) => ({
      blocks: [{ type: 'tool_use' as const, id, name: 'AskUserQuestion', input: { questions } }],
    })
    const setup = await scriptedEngine([
      ask('ask-1', [question('First?', ['a', 'b']), question('Second?', ['c', 'd'])]),
      ask('ask-2', [question('Color?', ['red', 'blue'])]),
      text('Red it is.'),
    ])
    const chat = await renderChat(setup)
    await chat.type('go', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('First?'), 'the first question')
    await chat.type('1')
    await chat.waitFor((frame) => frame.includes('Second?'), 'the second question')
    chat.controller.send({ type: 'interrupt' })
    await chat.waitFor((frame) => frame.includes('Interrupted'), 'the interrupted turn')
    await chat.type('again', KEYS.enter)
    await chat.waitFor(
      (frame) => frame.includes('Color?') && frame.includes('2. blue'),
      'the new question from its start',
    )
    await chat.type('1')
    await chat.waitFor((frame) => frame.includes('Red it is.'), 'the answer')
  })
})
