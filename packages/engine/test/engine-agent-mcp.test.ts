/**
 * Issue 15's last item: an agent definition's own `mcpServers` (Claude Code's field) start for that
 * agent's run only — its tools are in the agent's requests and not the main agent's — and are
 * stopped when the run ends (checked by pid); a project's inline servers wait for workspace trust.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FAULT_SERVER } from '../src/mcp/mcp.test-util.js'
import { cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

const tool = (name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, name, input })

/**
 * Whether a process whose command line holds `marker` is alive on this machine (a confined server
 * has its own pid namespace, so a pid it reports about itself means nothing out here).
 */
const running = (marker: string) =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .some((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)
      } catch {
        return false
      }
    })

function projectWithAgent(): { root: string; marker: string } {
  const root = tempDir('ze-agent-mcp-')
  writeFileSync(join(root, 'README.md'), '# agent mcp\n')
  const marker = `ze-agent-mcp-${process.pid}-${Date.now()}`
  mkdirSync(join(root, '.claude', 'agents'), { recursive: true })
  writeFileSync(
    join(root, '.claude', 'agents', 'echoer.md'),
    [
      '---',
      'name: echoer',
      'description: Echoes through its own server',
      'mcpServers:',
      '  - fault:',
      `      command: ${JSON.stringify(process.execPath)}`,
      // The marker argument names the server process among this machine's processes.
      `      args: ${JSON.stringify([FAULT_SERVER, marker])}`,
      '  - nowhere',
      '---',
      'Echo what you are asked to.',
      '',
    ].join('\n'),
  )
  return { root, marker }
}

const SPY_SERVER = join(dirname(FAULT_SERVER), 'spy-server.mjs')
const bwrapInstalled = ['/usr/bin/bwrap', '/usr/local/bin/bwrap'].some((path) => existsSync(path))

const agentCall = {
  blocks: [tool('Agent', { subagent_type: 'echoer', description: 'echo', prompt: 'Echo hi.' })],
}

describe("an agent definition's own MCP servers", () => {
  it('start for its run only, offer their tools to it alone, and stop when the run ends', async () => {
    const { root, marker } = projectWithAgent()
    const t = await engineWith([
      agentCall,
      { blocks: [tool('mcp__fault__echo', { message: 'hi' })] },
      { blocks: [{ type: 'text', text: 'echoed' }] },
      { blocks: [{ type: 'text', text: 'Done.' }] },
    ])
    await t.engine.trustWorkspace(root)
    const session = await t.engine.openSession({ projectRoot: root, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'Have echoer echo.' })
    await t.waitFor(session, 'turnFinished')
    const names = (index: number) => t.client.requests[index]!.tools.map((spec) => spec.name)
    expect(names(0)).not.toContain('mcp__fault__echo')
    expect(names(1)).toContain('mcp__fault__echo')
    expect(names(3)).not.toContain('mcp__fault__echo')
    const results = t
      .events(session, 'toolFinished')
      .flatMap((event) => (event.type === 'toolFinished' ? [[event.toolName, event.status]] : []))
    expect(results).toEqual([
      ['mcp__fault__echo', 'ok'],
      ['Agent', 'ok'],
    ])
    expect(JSON.stringify(t.client.requests[2]!.messages)).toContain('echo: hi')
    const notices = t.events(session, 'notice').map((event) => (event.type === 'notice' ? event.message : ''))
    expect(
      notices.some((message) => message.includes('names MCP server nowhere, which no settings define')),
    ).toBe(true)
    await expect.poll(() => running(marker), { timeout: 10_000 }).toBe(false)
    await t.engine.shutdown()
  })

  it("withholds a project agent's inline servers until the workspace is trusted", async () => {
    const { root, marker } = projectWithAgent()
    const t = await engineWith([
      agentCall,
      { blocks: [{ type: 'text', text: 'no server' }] },
      { blocks: [{ type: 'text', text: 'Done.' }] },
    ])
    const session = await t.engine.openSession({ projectRoot: root, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'Have echoer echo.' })
    await t.waitFor(session, 'turnFinished')
    expect(t.client.requests[1]!.tools.map((spec) => spec.name)).not.toContain('mcp__fault__echo')
    const notices = t.events(session, 'notice').map((event) => (event.type === 'notice' ? event.message : ''))
    expect(
      notices.some((message) => /MCP server fault is withheld until you trust the workspace/.test(message)),
    ).toBe(true)
    expect(running(marker)).toBe(false)
    await t.engine.shutdown()
  })

  it.skipIf(!bwrapInstalled && process.env.CI === undefined)(
    "a user agent's inline stdio server runs confined: no ~/.npmrc, no write outside, no socket (issue 34)",
    async () => {
      const home = tempDir('ze-home-')
      const outside = tempDir('ze-outside-')
      writeFileSync(join(home, '.npmrc'), '//registry.npmjs.org/:_authToken=NPMRC-SECRET\n')
      const socketPath = join(home, 'agent.sock')
      const listener = createServer((socket) => socket.end())
      await new Promise<void>((resolve) => listener.listen(socketPath, resolve))
      const root = tempDir('ze-agent-mcp-')
      writeFileSync(join(root, 'README.md'), '# agent mcp\n')
      mkdirSync(join(home, '.claude', 'agents'), { recursive: true })
      const args = [SPY_SERVER, join(home, '.npmrc'), join(outside, 'escaped.txt'), socketPath]
      writeFileSync(
        join(home, '.claude', 'agents', 'prober.md'),
        [
          '---',
          'name: prober',
          'description: Probes through its own server',
          'mcpServers:',
          '  - spy:',
          `      command: ${JSON.stringify(process.execPath)}`,
          `      args: ${JSON.stringify(args)}`,
          '---',
          'Probe.',
          '',
        ].join('\n'),
      )
      const t = await engineWith(
        [
          { blocks: [tool('Agent', { subagent_type: 'prober', description: 'probe', prompt: 'Probe.' })] },
          { blocks: [tool('mcp__spy__probe', {})] },
          { blocks: [{ type: 'text', text: 'probed' }] },
          { blocks: [{ type: 'text', text: 'Done.' }] },
        ],
        home,
      )
      const session = await t.engine.openSession({ projectRoot: root, model: 'scripted:x', mode: 'bypass' })
      session.send({ type: 'submit', text: 'Have prober probe.' })
      await t.waitFor(session, 'turnFinished')
      const output = JSON.stringify(t.client.requests[2]!.messages)
      expect(output).toMatch(/read=ENOENT write=(ENOENT|EROFS) socket=EPERM/)
      expect(output).not.toContain('NPMRC-SECRET')
      expect(existsSync(join(outside, 'escaped.txt'))).toBe(false)
      await t.engine.shutdown()
      await new Promise<void>((resolve) => listener.close(() => resolve()))
    },
    60_000,
  )
})
