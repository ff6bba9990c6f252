// Time from process start to the first streamed text of a session, in process, over the real
// Anthropic SDK against the scripted HTTP server (run `pnpm build` first). Prints each phase.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const t0 = performance.now()
const mark = (label) => console.log(`${label.padEnd(20)} ${(performance.now() - t0).toFixed(0)} ms`)
const { Engine } = await import(new URL('../dist/index.js', import.meta.url).href)
mark('engine imported')
const { startScriptedServer } = await import(new URL('../dist/testing.js', import.meta.url).href)
const server = await startScriptedServer([{ blocks: [{ type: 'text', text: 'hi' }] }])
const dir = mkdtempSync(join(tmpdir(), 'ze-first-request-'))
writeFileSync(join(dir, 'a.ts'), 'export const a = 1\n')
const env = { PATH: process.env.PATH, HOME: dir, ANTHROPIC_API_KEY: 'x', ANTHROPIC_BASE_URL: server.url }
const engine = await Engine.create({
  home: dir,
  dataDir: join(dir, 'data'),
  configDir: join(dir, 'config'),
  env,
})
const session = await engine.openSession({ projectRoot: dir, model: 'anthropic/claude-sonnet-4-6' })
mark('session opened')
const events = session.events()[Symbol.asyncIterator]()
session.send({ type: 'submit', text: 'hi' })
for (;;) {
  const next = await events.next()
  if (next.done) break
  if (next.value.event.type === 'textStart') mark('first text')
  if (next.value.event.type === 'turnFinished') break
}
await engine.shutdown()
await server.close()
rmSync(dir, { recursive: true, force: true })
