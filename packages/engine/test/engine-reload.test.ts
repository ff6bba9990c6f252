/**
 * Spec 003 "The registry is rebuilt on settings reload" and spec 000 "Workspace trust"
 * (`trustWorkspace { trusted: true }` records the root and reloads the session), on a real Engine:
 * agent definitions edited while a session runs reach the Agent tool after `reloadSettings`, and
 * trusting a workspace in a running session applies its mode, allow rules, hooks, skills, commands
 * and `.mcp.json` servers (a real stdio MCP server process) without reopening the session.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { isProcessAlive } from '@z-engine/host'
import type { EngineEvent } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { viewOf } from '../src/api/engine.js'
import type { Session } from '../src/index.js'
import { FAULT_SERVER } from '../src/mcp/mcp.test-util.js'
import type { ModelRequest } from '../src/model/types.js'
import { cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

function put(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
}

type T = Awaited<ReturnType<typeof engineWith>>
const notices = (t: T, session: Session) =>
  t.events(session, 'notice').map((event) => (event.type === 'notice' ? event.message : ''))
const agentDescription = (request: ModelRequest) =>
  request.tools.find((tool) => tool.name === 'Agent')?.description ?? ''
const text = (value: string) => ({ blocks: [{ type: 'text' as const, text: value }] })

describe('settings reload (spec 003 "The registry is rebuilt on settings reload")', () => {
  it('an agent definition added, changed or removed while the session runs reaches the Agent tool after reloadSettings, and the new agent launches', async () => {
    const project = tempDir('ze-reload-')
    put(project, 'README.md', '# reload\n')
    put(
      project,
      '.z-engine/agents/old-helper.md',
      '---\nname: old-helper\ndescription: Helps the old way\n---\nHelp.\n',
    )
    const t = await engineWith([
      text('First.'),
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'Agent',
            input: { subagent_type: 'tester', description: 'Run tests', prompt: 'Say done.' },
          },
        ],
      },
      text('Tester reporting: done.'),
      text('The tester answered.'),
      text('Noted.'),
    ])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'Hello.' })
    await t.waitFor(session, 'turnFinished')
    expect(agentDescription(t.client.requests[0]!)).toContain('old-helper')
    expect(agentDescription(t.client.requests[0]!)).not.toContain('tester')

    rmSync(join(project, '.z-engine/agents/old-helper.md'))
    put(
      project,
      '.z-engine/agents/tester.md',
      '---\nname: tester\ndescription: Runs the test suite\n---\nYou run tests.\n',
    )
    session.send({ type: 'reloadSettings' })
    await session.idle()
    expect(notices(t, session)).toContain('Settings reloaded.')

    session.send({ type: 'submit', text: 'Use the tester.' })
    await t.waitFor(session, 'turnFinished', 2)
    const offered = agentDescription(t.client.requests[1]!)
    expect(offered).toContain('tester: Runs the test suite')
    expect(offered).not.toContain('old-helper')
    // The subagent ran with the new definition's system prompt, and its answer came back.
    const subagentRequest = t.client.requests[2]!
    expect(JSON.stringify(subagentRequest.system)).toContain('You run tests.')
    expect(JSON.stringify(t.client.requests[3]!.messages.at(-1))).toContain('Tester reporting: done.')

    // Changed, then `/reload` in the chat: the Agent tool describes the new version.
    await session.idle()
    put(
      project,
      '.z-engine/agents/tester.md',
      '---\nname: tester\ndescription: Runs only the fast tests\n---\nFast.\n',
    )
    session.send({ type: 'runCommand', name: 'reload', args: '' })
    await session.idle()
    session.send({ type: 'submit', text: 'Again.' })
    await t.waitFor(session, 'turnFinished', 3)
    expect(agentDescription(t.client.requests[4]!)).toContain('tester: Runs only the fast tests')
    await t.engine.shutdown()
  })
})

/** `session.idle()`, failing after 60 s with the step's name and the session's events (a hang says where). */
async function idleWithin(t: Awaited<ReturnType<typeof engineWith>>, session: Session, step: string) {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `The session was not idle within 60 s after ${step}; its events: ${t
              .events(session)
              .map((event) => event.type)
              .join(', ')}`,
          ),
        ),
      60_000,
    )
  })
  try {
    await Promise.race([session.idle(), late])
  } finally {
    clearTimeout(timer)
  }
}

describe('trustWorkspace in a running session (spec 000 "Workspace trust")', () => {
  it("applies the project's mode, allow rules, hooks, skills, commands and .mcp.json servers at once, and the MCP server dies with the session", async () => {
    const project = tempDir('ze-trust-reload-')
    put(project, 'README.md', '# trust\n')
    const marker = join(project, 'hook-ran.txt')
    put(
      project,
      '.z-engine/settings.toml',
      [
        '[permissions]',
        'mode = "acceptEdits"',
        'allow = ["Bash(echo trusted-allow)"]',
        '',
        '[[hooks.UserPromptSubmit]]',
        `command = "echo prompt >> ${marker}"`,
        '',
      ].join('\n'),
    )
    put(
      project,
      '.mcp.json',
      JSON.stringify({ mcpServers: { fault: { command: process.execPath, args: [FAULT_SERVER] } } }),
    )
    put(
      project,
      '.z-engine/skills/polish/SKILL.md',
      '---\nname: polish\ndescription: Polishes prose\n---\nPolish it.\n',
    )
    put(project, '.z-engine/commands/greet.md', '---\ndescription: Greets\n---\nSay hello to $ARGUMENTS.\n')

    const t = await engineWith((_request, index) =>
      index === 0
        ? {
            blocks: [
              {
                type: 'tool_use',
                name: 'Bash',
                input: { command: 'echo trusted-allow', description: 'echo' },
              },
            ],
          }
        : text(`Answer ${index}.`),
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    expect(t.events(session, 'trustRequired')).toHaveLength(1)
    expect(session.mode).toBe('default')
    expect(notices(t, session)).toContain(
      "This project's MCP server fault is withheld until you trust the workspace.",
    )

    session.send({ type: 'trustWorkspace', trusted: true })
    await idleWithin(t, session, 'trustWorkspace')
    expect(notices(t, session)).toContain('Workspace trusted; its settings now apply.')
    // The mode the project sets applies (the user had not changed it in this session).
    expect(session.mode).toBe('acceptEdits')
    await expect
      .poll(() => notices(t, session).some((message) => /MCP server fault is ready/.test(message)), {
        timeout: 30_000,
      })
      .toBe(true)

    // The allow rule holds (no approval asked), the hook ran, the MCP tools and the skill are offered.
    session.send({ type: 'submit', text: 'Go.' })
    await t.waitFor(session, 'turnFinished')
    expect(t.events(session, 'approvalRequested')).toEqual([])
    expect(t.events(session, 'toolFinished')).toMatchObject([{ toolName: 'Bash', status: 'ok' }])
    expect(readFileSync(marker, 'utf8')).toBe('prompt\n')
    const tools = t.client.requests[0]!.tools.map((tool) => tool.name)
    expect(tools).toContain('mcp__fault__echo')
    expect(tools).toContain('Skill')
    expect(JSON.stringify(t.client.requests[0]!.system)).toContain('polish')

    session.send({ type: 'runCommand', name: 'greet', args: 'Ada' })
    await t.waitFor(session, 'turnFinished', 2)
    expect(JSON.stringify(t.client.requests.at(-1)!.messages)).toContain('Say hello to Ada.')

    session.send({ type: 'runCommand', name: 'mcp', args: '' })
    await idleWithin(t, session, '/mcp')
    const status = t.events(session, 'commandOutput').at(-1) as Extract<
      EngineEvent,
      { type: 'commandOutput' }
    >
    expect(status.markdown).toContain('**fault**')
    const info = viewOf(session).mcpServers()
    const pid = info.find((server) => server.name === 'fault')?.pid
    expect(pid).toBeGreaterThan(0)
    await t.engine.shutdown()
    expect(isProcessAlive(pid!)).toBe(false)
    expect(existsSync(marker)).toBe(true)
  })
})
