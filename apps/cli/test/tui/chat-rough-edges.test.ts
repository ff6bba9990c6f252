/**
 * Issue 39's small items in the chat, through the real chat screen, controller and engine session
 * (the model scripted): a plan-mode denial says why and how to leave plan mode.
 */
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
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
      text('Proposing a plan instead.'),
    ])
    const chat = await renderChat(setup, { mode: 'plan' })
    await chat.type('write the notes', KEYS.enter)
    const frame = await chat.waitFor((current) => current.includes('Proposing a plan'), 'the answer')
    expect(frame).toContain('denied')
    expect(frame).toMatch(/⎿ plan mode is read-only/)
    expect(frame.replace(/\s+/g, ' ')).toContain('Shift+Tab leaves plan mode')
  })
})

describe('an approved plan', () => {
  it('stays in the transcript, and the model gets it back with the approval', async () => {
    const plan = '1. Add the parser\n2. Test the parser'
    const setup = await scriptedEngine([
      { blocks: [{ type: 'tool_use', id: 'p1', name: 'ExitPlanMode', input: { plan } }] },
      text('Carrying out step one.'),
    ])
    const chat = await renderChat(setup, { mode: 'plan' })
    await chat.type('plan the parser', KEYS.enter)
    await chat.waitFor((current) => current.includes('Test the parser'), 'the plan panel')
    await chat.type('a')
    const frame = await chat.waitFor((current) => current.includes('Carrying out step one.'), 'the answer')
    expect(frame).toContain('Approved plan (edits auto-accepted)')
    expect(frame).toContain('Add the parser')
    expect(frame).toContain('Test the parser')
    const sent = JSON.stringify(setup.client.requests.at(-1)?.messages)
    expect(sent).toContain('## Approved Plan:\\n1. Add the parser\\n2. Test the parser')
    // Kept in the session: a resumed chat shows it where it was approved.
    const sessionId = chat.session.id
    chat.unmount()
    await chat.session.close()
    const resumed = await renderChat(setup, { resume: sessionId })
    const replayed = await resumed.waitFor(
      (current) => current.includes('Resumed'),
      'the replayed transcript',
    )
    expect(replayed).toContain('Approved plan')
    expect(replayed).toContain('Test the parser')
  })
})

describe('an @file mention', () => {
  it('shows one "Read <path> (N lines)" line under the prompt; the model gets the whole file', async () => {
    const setup = await scriptedEngine([text('Tuned.')])
    writeFileSync(
      join(setup.project, 'math.ts'),
      'export const one = 1\nexport const two = 2\nexport const three = 3\n',
    )
    const chat = await renderChat(setup)
    await chat.type('tune @math.ts now', KEYS.enter)
    const frame = await chat.waitFor((current) => current.includes('Tuned.'), 'the answer')
    expect(frame).toContain('tune @math.ts now')
    expect(frame).toContain('⎿ Read math.ts (3 lines)')
    expect(frame).not.toContain('export const two')
    expect(JSON.stringify(setup.client.requests[0]?.messages)).toContain('export const two = 2')
    // A resumed chat shows the same line.
    const sessionId = chat.session.id
    chat.unmount()
    await chat.session.close()
    const resumed = await renderChat(setup, { resume: sessionId })
    const replayed = await resumed.waitFor(
      (current) => current.includes('Resumed'),
      'the replayed transcript',
    )
    expect(replayed).toContain('⎿ Read math.ts (3 lines)')
    expect(replayed).not.toContain('export const two')
  })
})

describe('MCP prompts and resources in completion', () => {
  it('offers /mcp__server__prompt commands and @server:uri resources of the ready servers', async () => {
    const setup = await scriptedEngine([text('Read it.')])
    const everything = join(
      dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
      'dist',
      'index.js',
    )
    writeFileSync(
      join(setup.project, '.mcp.json'),
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } },
      }),
    )
    await setup.engine.trustWorkspace(setup.project)
    const chat = await renderChat(setup)
    await chat.type('/mcp__')
    // The server starts in the background: its prompts are offered once it is ready.
    const prompts = await chat.waitFor(
      (frame) => frame.includes('/mcp__everything__args-prompt'),
      'the MCP prompt in completion',
    )
    expect(prompts).toContain('/mcp__everything__simple-prompt')
    await chat.type(KEYS.ctrlU, '@')
    await chat.type(...'everything:demo://resource/static/document/arch'.split(''))
    const resources = await chat.waitFor(
      (frame) => frame.includes('@everything:demo://resource/static/document/architecture.md'),
      'the MCP resource in completion',
    )
    expect(resources).toContain('@everything:demo://resource/static/document/architecture.md')
    await chat.type(KEYS.tab)
    await chat.waitFor(
      (frame) =>
        frame.includes('@everything:demo://resource/static/document/architecture.md ') &&
        !frame.includes('/mcp__'),
      'the completed mention',
    )
  })
})
