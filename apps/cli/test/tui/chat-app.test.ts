import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { KEYS, renderChat, scriptedEngine } from './harness.js'

const text = (value: string) => ({ blocks: [{ type: 'text' as const, text: value }] })
const bash = (command: string, id = 'call-1') => ({
  type: 'tool_use' as const,
  id,
  name: 'Bash',
  input: { command },
})

/** Every text the model was sent in its last request (to see what the user's answers told it). */
function lastRequestText(client: { requests: Array<{ messages: unknown }> }): string {
  return JSON.stringify(client.requests.at(-1)?.messages ?? [])
}

describe('interactive chat', () => {
  it('streams the answer with markdown, after the prompt the user typed', async () => {
    const setup = await scriptedEngine([text('Hello **world**, see `a.ts`.\n\n- one\n- two')], {
      chunkSize: 3,
    })
    const chat = await renderChat(setup)
    await chat.type('hi there')
    await chat.waitFor((frame) => frame.includes('› hi there'), 'the typed prompt in the composer')
    await chat.type(KEYS.enter)
    const frame = await chat.waitFor((current) => current.includes('• two'), 'the streamed answer')
    expect(frame).toContain('Hello world, see a.ts.')
    expect(frame).not.toContain('**')
    expect(frame).toContain('• one')
    await chat.waitFor((current) => !current.includes('working'), 'the turn to finish')
  })

  it('approves a Bash call once and shows its card finishing ok', async () => {
    const setup = await scriptedEngine([{ blocks: [bash('printf ok > out.txt')] }, text('Wrote it.')])
    const chat = await renderChat(setup)
    await chat.type('make the file', KEYS.enter)
    const card = await chat.waitFor((frame) => frame.includes('$ printf ok > out.txt'), 'the approval card')
    expect(card).toContain('[y] Yes, once')
    expect(card).toContain('[n] No')
    await chat.type('y')
    await chat.waitFor((frame) => frame.includes('Wrote it.'), 'the answer after the tool')
    expect(chat.frame()).toMatch(/✓ .*ok/)
    expect(existsSync(join(setup.project, 'out.txt'))).toBe(true)
  })

  it('denies with feedback the model then sees', async () => {
    const setup = await scriptedEngine([{ blocks: [bash('rm -rf build')] }, text('Understood.')])
    const chat = await renderChat(setup)
    await chat.type('clean up', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('$ rm -rf build'), 'the approval card')
    await chat.type('n')
    await chat.waitFor((frame) => frame.includes('Tell the agent what to do instead'), 'the feedback prompt')
    await chat.type('use git clean instead', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('Understood.'), 'the answer after the denial')
    expect(chat.frame()).toMatch(/⊘ .*denied/)
    expect(chat.frame()).toContain('⎿ Denied: use git clean instead')
    expect(lastRequestText(setup.client)).toContain('use git clean instead')
    await chat.waitFor((frame) => !frame.includes('working'), 'the turn to finish')
    chat.unmount()
    const resumed = await renderChat(setup, { resume: chat.session.id })
    await resumed.waitFor(
      (frame) => frame.includes('⎿ Denied: use git clean instead'),
      'the feedback on resume',
    )
  })

  it("answers a batch's asks one by one in any order", async () => {
    const setup = await scriptedEngine([
      { blocks: [bash('printf a > a.txt', 'call-a'), bash('printf b > b.txt', 'call-b')] },
      text('Both handled.'),
    ])
    const chat = await renderChat(setup)
    await chat.type('two files', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('(1 of 2'), 'two approval cards')
    await chat.type(KEYS.right)
    await chat.waitFor((frame) => frame.includes('$ printf b > b.txt'), 'the second card focused')
    await chat.type('y')
    await chat.waitFor(
      (frame) => frame.includes('$ printf a > a.txt') && !frame.includes('of 2'),
      'the first card left',
    )
    await chat.type('n', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('Both handled.'), 'the answer')
    expect(existsSync(join(setup.project, 'b.txt'))).toBe(true)
    expect(existsSync(join(setup.project, 'a.txt'))).toBe(false)
  })

  it('interrupts the running turn with Esc', async () => {
    const long = 'word '.repeat(400)
    const setup = await scriptedEngine([text(long), text('next')], { chunkSize: 5, delayMs: 10 })
    const chat = await renderChat(setup)
    await chat.type('write a lot', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('word word') && frame.includes('working'), 'streaming')
    await chat.type(KEYS.escape)
    await chat.waitFor((frame) => frame.includes('Interrupted'), 'the interrupted turn')
    expect(chat.frame()).not.toContain('● working')
    expect(chat.session.busy).toBe(false)
  })

  it('queues a message typed while a turn runs as steering', async () => {
    const setup = await scriptedEngine([text('word '.repeat(200)), text('ok')], { chunkSize: 5, delayMs: 10 })
    const chat = await renderChat(setup)
    await chat.type('start', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('working'), 'the turn to start')
    await chat.type('also check the tests', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('queued: also check the tests'), 'the queued message')
    await chat.type(KEYS.escape)
    await chat.waitFor((frame) => frame.includes('Interrupted'), 'the interrupt')
  })

  it('completes / commands and runs the CLI ones', async () => {
    const setup = await scriptedEngine([])
    const chat = await renderChat(setup)
    await chat.type('/co')
    const list = await chat.waitFor((frame) => frame.includes('/compact'), 'completions')
    expect(list).toContain('/context')
    expect(list).toContain('/cost')
    expect(list).not.toContain('Show keys and commands')
    await chat.type(KEYS.down, KEYS.tab)
    await chat.waitFor((frame) => frame.includes('› /context '), 'the completed name')
    await chat.type('\u0015', '/he', KEYS.enter)
    const help = await chat.waitFor((frame) => frame.includes('Ctrl+C'), 'the help')
    expect(help).toContain('/sessions')
  })

  it('sends engine commands as runCommand', async () => {
    const setup = await scriptedEngine([])
    const chat = await renderChat(setup)
    await chat.type('/cost', KEYS.enter)
    await chat.waitFor(
      () => setup.envelopes.some((envelope) => ['commandOutput', 'notice'].includes(envelope.event.type)),
      'the engine to answer /cost',
    )
  })

  it('cycles the permission mode with Shift-Tab', async () => {
    const setup = await scriptedEngine([])
    const chat = await renderChat(setup)
    expect(chat.frame()).toContain('ask before edits')
    await chat.type(KEYS.shiftTab)
    await chat.waitFor((frame) => frame.includes('auto-accept edits'), 'acceptEdits')
    await chat.type(KEYS.shiftTab)
    await chat.waitFor((frame) => frame.includes('plan mode'), 'plan')
    expect(chat.session.mode).toBe('plan')
  })

  it('warns on the first Ctrl-C and quits on the second', async () => {
    const setup = await scriptedEngine([])
    const chat = await renderChat(setup)
    await chat.type(KEYS.ctrlC)
    await chat.waitFor((frame) => frame.includes('Press Ctrl-C again to quit'), 'the warning')
    expect(chat.exits()).toBe(0)
    await chat.type(KEYS.ctrlC)
    expect(chat.exits()).toBe(1)
  })

  it('shows the stored transcript first when resuming', async () => {
    const setup = await scriptedEngine([text('First answer.'), text('Second answer.')])
    const first = await renderChat(setup)
    await first.type('first question', KEYS.enter)
    await first.waitFor(
      (frame) => frame.includes('First answer.') && !frame.includes('working'),
      'the first turn',
    )
    await first.session.close()
    first.unmount()
    const resumed = await renderChat(setup, { resume: first.session.id })
    const frame = resumed.frame()
    expect(frame).toContain('› first question')
    expect(frame).toContain('First answer.')
    expect(frame).toContain('Resumed')
  })

  it("/sessions lists this project's sessions and /clear starts a new one", async () => {
    const setup = await scriptedEngine([text('One.'), text('Two.')])
    const chat = await renderChat(setup)
    const firstId = chat.session.id
    await chat.type('first', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('One.') && !frame.includes('working'), 'the first turn')
    await chat.type('/sessions', KEYS.enter)
    await chat.waitFor(
      (frame) => frame.includes(`${firstId}`) && frame.includes('(this one)'),
      'the session list',
    )
    await chat.type('/clear', KEYS.enter)
    await chat.waitFor(() => chat.controller.session.id !== firstId, 'a new session')
    await chat.type('second', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('Two.'), 'the answer in the new session')
    const secondId = chat.controller.session.id
    const prompts = (id: string) =>
      setup.envelopes
        .filter((envelope) => envelope.sessionId === id && envelope.event.type === 'turnStarted')
        .map((envelope) => envelope.sessionId)
    expect(prompts(firstId)).toHaveLength(1)
    expect(prompts(secondId)).toHaveLength(1)
    // The second session's model request does not carry the first conversation.
    expect(JSON.stringify(setup.client.requests.at(-1)?.messages)).not.toContain('first')
  })

  it('shows context use and cost in the status line after a request', async () => {
    const setup = await scriptedEngine([
      { ...text('Counted.'), usage: { inputTokens: 40_000, outputTokens: 10 } },
    ])
    const chat = await renderChat(setup)
    expect(chat.frame()).not.toContain('context')
    await chat.type('count', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('Counted.') && !frame.includes('working'), 'the turn')
    const window = chat.controller.contextWindowOf(chat.session.model)
    expect(chat.frame()).toContain(`context ${Math.round((40_000 / window) * 100)}%`)
    expect(chat.frame()).toMatch(/\$\d+\.\d{4}/)
  })

  it('recalls sent prompts with ↑', async () => {
    const setup = await scriptedEngine([text('Done.')])
    const chat = await renderChat(setup)
    await chat.type('run the tests', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('Done.') && !frame.includes('working'), 'the turn')
    expect(chat.frame()).not.toMatch(/│ › run the tests\s+│/)
    await chat.type(KEYS.up)
    await chat.waitFor((frame) => /│ › run the tests\s+│/.test(frame), 'the recalled prompt in the composer')
  })

  it('keeps every row, bordered ones included, within the terminal width', async () => {
    const setup = await scriptedEngine([])
    const chat = await renderChat(setup)
    await chat.type('/help', KEYS.enter)
    const frame = await chat.waitFor((current) => current.includes('switch card'), 'the help box')
    // ink-testing-library's terminal is 100 columns wide.
    const widest = Math.max(...frame.split('\n').map((line) => [...line].length))
    expect(widest).toBeLessThanOrEqual(100)
    expect(frame).toMatch(/• approvals:/)
  })

  it('shows a foreground subagent once: its Agent card, running then done', async () => {
    const agentCall = {
      type: 'tool_use' as const,
      id: 'agent-call',
      name: 'Agent',
      input: {
        description: 'find the config',
        prompt: 'Find the config file.',
        subagent_type: 'general',
      },
    }
    // One scripted client serves both agents, in request order; the subagent streams slowly.
    const setup = await scriptedEngine(
      [{ blocks: [agentCall] }, text(`Found it. ${'detail '.repeat(60)}`), text('The config is found.')],
      { chunkSize: 8, delayMs: 5 },
    )
    const chat = await renderChat(setup)
    await chat.type('where is the config?', KEYS.enter)
    const running = await chat.waitFor(
      (frame) => /⋯ Agent \(general\): find the config running/.test(frame),
      'the running subagent',
    )
    expect(running.match(/find the config/g)).toHaveLength(1)
    const frame = await chat.waitFor(
      (current) => current.includes('The config is found.'),
      'the final answer',
    )
    expect(frame).toMatch(/✓ Agent \(general\): find the config ok/)
    // Listed once: no separate subagent row besides its card.
    expect(frame.match(/find the config/g)).toHaveLength(1)
    // The subagent's own text stays in its transcript.
    expect(frame).not.toContain('Found it.')
  })

  it('clears the screen and scrollback on a width change and prints the transcript again', async () => {
    const setup = await scriptedEngine([text('First answer.')])
    const chat = await renderChat(setup)
    await chat.type('hello', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('First answer.') && !frame.includes('working'), 'the answer')
    const before = chat.written().length
    chat.resize(60)
    const frame = await chat.waitFor(
      (current) => current.includes('First answer.') && current.includes('╭' + '─'.repeat(58) + '╮'),
      'the prompt box redrawn at 60 columns',
    )
    const after = chat.written().slice(before)
    expect(after.some((written) => written.includes('\u001b[2J\u001b[3J'))).toBe(true)
    // The transcript is printed again below the clear (the test terminal keeps every static write,
    // so the first print is still in its record; a real terminal erased it).
    expect(frame.match(/First answer\./g)).toHaveLength(2)
    const redrawn = frame.slice(frame.lastIndexOf('z-engine'))
    expect(Math.max(...redrawn.split('\n').map((line) => [...line].length))).toBeLessThanOrEqual(60)
    // A height-only change does not clear.
    const count = chat.written().length
    chat.resize(60)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(
      chat
        .written()
        .slice(count)
        .some((written) => written.includes('\u001b[3J')),
    ).toBe(false)
  })
})
