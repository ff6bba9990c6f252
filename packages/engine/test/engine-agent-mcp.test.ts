/**
 * Issue 15's last item: an agent definition's own `mcpServers` (Claude Code's field) start for that
 * agent's run only — its tools are in the agent's requests and not the main agent's — and are
 * stopped when the run ends (checked by pid); a project's inline servers wait for workspace trust.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { isProcessAlive } from '@z-engine/host'
import { describe, expect, it } from 'vitest'
import { FAULT_SERVER } from '../src/mcp/mcp.test-util.js'
import { cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

const tool = (name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, name, input })

function projectWithAgent(): { root: string; pidFile: string } {
  const root = tempDir('ze-agent-mcp-')
  writeFileSync(join(root, 'README.md'), '# agent mcp\n')
  const pidFile = join(root, 'server.pid')
  mkdirSync(join(root, '.claude', 'agents'), { recursive: true })
  // `exec` keeps the shell's pid, so the file names the server process itself.
  const script = `echo $$ > ${pidFile}; exec ${process.execPath} ${FAULT_SERVER}`
  writeFileSync(
    join(root, '.claude', 'agents', 'echoer.md'),
    [
      '---',
      'name: echoer',
      'description: Echoes through its own server',
      'mcpServers:',
      '  - fault:',
      '      command: sh',
      `      args: ["-c", ${JSON.stringify(script)}]`,
      '  - nowhere',
      '---',
      'Echo what you are asked to.',
      '',
    ].join('\n'),
  )
  return { root, pidFile }
}

const agentCall = {
  blocks: [tool('Agent', { subagent_type: 'echoer', description: 'echo', prompt: 'Echo hi.' })],
}

describe("an agent definition's own MCP servers", () => {
  it('start for its run only, offer their tools to it alone, and stop when the run ends', async () => {
    const { root, pidFile } = projectWithAgent()
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
    const pid = Number(readFileSync(pidFile, 'utf8').trim())
    expect(pid).toBeGreaterThan(0)
    await expect.poll(() => isProcessAlive(pid), { timeout: 10_000 }).toBe(false)
    await t.engine.shutdown()
  })

  it("withholds a project agent's inline servers until the workspace is trusted", async () => {
    const { root, pidFile } = projectWithAgent()
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
    expect(() => readFileSync(pidFile)).toThrow()
    await t.engine.shutdown()
  })
})
