/**
 * Issue 15 benchmark: session open → MCP tools offered, for server-everything over stdio (median of
 * 5), and how long after open the first model request goes out while that server is still starting.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { registerMarkdownLoader } from '../test/markdown-loader.js'

registerMarkdownLoader()
const { Engine } = await import('../src/index.js')
const { npmServerEntry } = await import('../src/mcp/mcp.test-util.js')
const { ScriptedClient } = await import('../src/testing.js')

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const toolsReady: number[] = []
const firstRequest: number[] = []
for (let run = 0; run < 5; run++) {
  const home = mkdtempSync(join(tmpdir(), 'ze-bench-mcp-'))
  const root = mkdtempSync(join(tmpdir(), 'ze-bench-mcp-project-'))
  mkdirSync(join(home, 'config'))
  writeFileSync(
    join(home, 'config', 'settings.toml'),
    `[mcp.servers.everything]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(npmServerEntry('server-everything'))}, "stdio"]\n`,
  )
  let opened = 0
  let requestAt = 0
  const client = new ScriptedClient(() => {
    requestAt ||= performance.now()
    return { blocks: [{ type: 'text', text: 'ok' }] }
  })
  let readyAt = 0
  const engine = await Engine.create({
    home,
    dataDir: join(home, 'data'),
    configDir: join(home, 'config'),
    env: { PATH: process.env.PATH ?? '', HOME: home },
    clientFactory: { createClient: () => ({ ok: true, client, provider: 'scripted', model: 'scripted' }) },
    onEvent: ({ event }) => {
      if (event.type === 'notice' && /MCP server everything is ready/.test(event.message))
        readyAt = performance.now()
    },
  })
  opened = performance.now()
  const session = await engine.openSession({ projectRoot: root, model: 'scripted:x' })
  session.send({ type: 'submit', text: 'hi' })
  while (readyAt === 0 || requestAt === 0) await new Promise((resolve) => setTimeout(resolve, 2))
  toolsReady.push(readyAt - opened)
  firstRequest.push(requestAt - opened)
  await engine.shutdown()
}
console.log(
  `mcp start (server-everything, stdio): open → tools offered median ${median(toolsReady).toFixed(0)} ms [${toolsReady.map((v) => v.toFixed(0)).join(', ')}]; open → first model request median ${median(firstRequest).toFixed(0)} ms [${firstRequest.map((v) => v.toFixed(0)).join(', ')}]`,
)
