/**
 * Peak memory while a command floods its output: a real Engine runs one Bash call that prints 1 GB
 * (`yes | head -c 1073741824`) and streams live progress to a listener, as a UI would. Reports the
 * process's peak RSS, the bytes delivered as live progress, and the wall time; exits 1 when the
 * peak RSS passes 200 MB (issue 13's bound).
 *
 * Run: pnpm --filter @z-engine/engine bench (or node --conditions=@z-engine/source --import tsx bench/flood-output.ts)
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { registerMarkdownLoader } from '../test/markdown-loader.js'

registerMarkdownLoader()
const { Engine } = await import('../src/index.js')
const { ScriptedClient } = await import('../src/testing.js')

const BYTES = Number(process.argv[2] ?? 1024 * 1024 * 1024)
const home = realpathSync(mkdtempSync(join(tmpdir(), 'ze-flood-home-')))
const project = realpathSync(mkdtempSync(join(tmpdir(), 'ze-flood-proj-')))
mkdirSync(join(home, 'config'))
writeFileSync(
  join(home, 'config', 'settings.toml'),
  '[context]\nrepo_map = false\n[checkpoints]\nenabled = false\n',
)
const client = new ScriptedClient([
  {
    blocks: [
      {
        type: 'tool_use',
        name: 'Bash',
        input: { command: `yes | head -c ${BYTES}`, description: 'flood', timeout: 600000 },
      },
    ],
  },
  { blocks: [{ type: 'text', text: 'done' }] },
])
let progressChars = 0
let progressEvents = 0
let finished: () => void = () => {}
const done = new Promise<void>((resolve) => {
  finished = resolve
})
let peakSampled = 0
const sampler = setInterval(() => {
  peakSampled = Math.max(peakSampled, process.memoryUsage().rss)
}, 20)
const engine = await Engine.create({
  home,
  dataDir: join(home, 'data'),
  configDir: join(home, 'config'),
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
  clientFactory: { createClient: () => ({ ok: true, client, provider: 'scripted', model: 'scripted' }) },
  onEvent: ({ event }) => {
    if (event.type === 'toolProgress' && event.progress.type === 'output') {
      progressChars += event.progress.text.length
      progressEvents += 1
    }
    if (event.type === 'turnFinished') finished()
  },
})
const started = performance.now()
const session = await engine.openSession({ projectRoot: project, mode: 'bypass', model: 'scripted:x' })
session.send({ type: 'submit', text: 'flood' })
await done
const seconds = (performance.now() - started) / 1000
await engine.shutdown()
clearInterval(sampler)
const peak = Math.max(peakSampled, process.resourceUsage().maxRSS * 1024)
console.log(
  `flood: ${(BYTES / 1024 / 1024).toFixed(0)} MiB printed by one Bash call in ${seconds.toFixed(1)} s; peak RSS ${(peak / 1024 / 1024).toFixed(0)} MB (Node baseline included); live progress ${progressEvents} events, ${(progressChars / 1024).toFixed(0)} KiB; load avg ${loadavg()[0]?.toFixed(1)}`,
)
rmSync(home, { recursive: true, force: true })
rmSync(project, { recursive: true, force: true })
// Issue 13's bound: a 1 GB flood must not take the engine past 200 MB; the bench fails if it does.
const BOUND_MB = 200
if (peak / 1024 / 1024 > BOUND_MB) {
  console.error(`flood: peak RSS above the ${BOUND_MB} MB bound`)
  process.exitCode = 1
}
