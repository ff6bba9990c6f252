/**
 * Issue 15: no stdio MCP server outlives an engine that is SIGKILLed (no handler can run then; the
 * host's watchdog kills the servers' process groups). Real servers: server-everything from npm and
 * our fault server with a grandchild.
 */
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { isProcessAlive } from '@z-engine/host'
import { describe, expect, it } from 'vitest'
import { FAULT_SERVER, npmServerEntry } from './mcp.test-util.js'

const MANAGER = resolve(import.meta.dirname, 'mcp-manager.ts')
const MARKDOWN_LOADER = resolve(import.meta.dirname, '../../test/markdown-loader.ts')
const REPO = resolve(import.meta.dirname, '../../../..')

describe.runIf(process.platform === 'linux')('stdio MCP servers when the engine is SIGKILLed', () => {
  it('are killed by the watchdog, grandchildren included', async () => {
    // A separate engine process: starts two servers, prints their pids once ready, then idles.
    const script = `
      import { registerMarkdownLoader } from ${JSON.stringify(MARKDOWN_LOADER)}
      registerMarkdownLoader()
      const { McpManager } = await import(${JSON.stringify(MANAGER)})
      const stdio = (name, args) => ({ name, transport: 'stdio', command: process.execPath, args, env: {}, cwd: process.cwd(), timeoutMs: 30000 })
      const mcp = new McpManager({
        specs: [stdio('everything', [${JSON.stringify(npmServerEntry('server-everything'))}, 'stdio']), stdio('tree', [${JSON.stringify(FAULT_SERVER)}, '--child'])],
        baseEnv: { PATH: process.env.PATH },
        hooks: { notice: () => {}, remind: () => {} },
      })
      mcp.start()
      await mcp.settled()
      const deadline = Date.now() + 60000
      while (!/grandchild pid=/.test(mcp.servers()[1].stderr) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      const grandchild = /grandchild pid=(\\d+)/.exec(mcp.servers()[1].stderr)?.[1]
      process.stdout.write(JSON.stringify({ servers: mcp.servers().map((s) => ({ status: s.status, pid: s.pid })), grandchild: Number(grandchild) }) + '\\n')
      setInterval(() => {}, 1000)
    `
    const engine = spawn(
      process.execPath,
      ['--conditions=@z-engine/source', '--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] },
    )
    let out = ''
    engine.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    await expect.poll(() => out.includes('\n'), { timeout: 60_000, interval: 50 }).toBe(true)
    const report = JSON.parse(out.trim()) as {
      servers: Array<{ status: string; pid: number }>
      grandchild: number
    }
    expect(report.servers.map((server) => server.status)).toEqual(['ready', 'ready'])
    const pids = [...report.servers.map((server) => server.pid), report.grandchild]
    expect(pids.every((pid) => Number.isInteger(pid) && isProcessAlive(pid))).toBe(true)

    engine.kill('SIGKILL')
    // The watchdog sends SIGTERM at once and SIGKILL a second later.
    await expect.poll(() => pids.filter(isProcessAlive), { timeout: 30_000, interval: 50 }).toEqual([])
  })
})
