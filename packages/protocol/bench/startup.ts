/**
 * Startup and throughput of the built package (`pnpm --filter @z-engine/protocol build` first):
 * import time, the first call of each parser with the precompiled validators and without them
 * (ajv compiling on first use), and warm parses per second. Each cold figure is the median of
 * several fresh processes.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'tsup'

const dist = fileURLToPath(new URL('../dist/', import.meta.url))
if (!existsSync(`${dist}index.js`)) {
  console.error('dist/ is missing: run `pnpm --filter @z-engine/protocol build` first.')
  process.exit(1)
}
// The same bundle without the embedded validators (sources as they are: `precompiled.ts` exports
// none), inside the package so `ajv` still resolves: every schema is compiled on first use.
const bare = fileURLToPath(new URL('./.bare/', import.meta.url))
await build({
  entry: { index: fileURLToPath(new URL('../src/index.ts', import.meta.url)) },
  format: ['esm'],
  outDir: bare,
  target: 'node20',
  config: false,
  silent: true,
})

const probe = `
  const t0 = performance.now()
  const p = await import(process.argv[1])
  const t1 = performance.now()
  p.parseCommand({ type: 'submit', text: 'hello' })
  const t2 = performance.now()
  p.parseSettings({ permissions: { mode: 'acceptEdits' }, context: { compact_at_percent: 90 } })
  const t3 = performance.now()
  p.parseLogRecord({ type: 'message', id: 'r', at: 'x', message: { id: 'm', role: 'user', content: [{ type: 'text', text: 'hi' }] } })
  const t4 = performance.now()
  console.log(JSON.stringify([t1 - t0, t2 - t1, t3 - t2, t4 - t3]))
`

function cold(entry: string, runs = 7): number[] {
  const samples: number[][] = []
  for (let run = 0; run < runs; run++) {
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', probe, entry], {
      encoding: 'utf8',
    })
    samples.push(JSON.parse(output) as number[])
  }
  return [0, 1, 2, 3].map((column) => {
    const sorted = samples.map((sample) => sample[column] ?? 0).sort((a, b) => a - b)
    return sorted[Math.floor(sorted.length / 2)] ?? 0
  })
}

const ms = (value: number) => `${value.toFixed(1)} ms`
const [importMs, commandMs, settingsMs, recordMs] = cold(`${dist}index.js`)
const [, bareCommandMs, bareSettingsMs, bareRecordMs] = cold(`${bare}index.js`)
rmSync(bare, { recursive: true, force: true })

console.log(`import @z-engine/protocol (dist): ${ms(importMs ?? 0)}`)
console.log(
  `first parseCommand, precompiled: ${ms(commandMs ?? 0)}; compiled on first use: ${ms(bareCommandMs ?? 0)}`,
)
console.log(
  `first parseSettings, precompiled: ${ms(settingsMs ?? 0)}; compiled on first use: ${ms(bareSettingsMs ?? 0)}`,
)
console.log(
  `first parseLogRecord, precompiled: ${ms(recordMs ?? 0)}; compiled on first use: ${ms(bareRecordMs ?? 0)}`,
)

const { parseCommand, parseLogRecord } = (await import(`${dist}index.js`)) as typeof import('../src/index.js')
function perSecond(run: () => unknown): number {
  for (let i = 0; i < 2000; i++) run()
  const iterations = 100_000
  const start = performance.now()
  for (let i = 0; i < iterations; i++) run()
  return Math.round(iterations / ((performance.now() - start) / 1000))
}
const command = {
  type: 'resolveApproval',
  approvalId: 'a1',
  decision: { type: 'allowSession', rule: 'Bash(npm test:*)' },
}
const record = {
  type: 'message',
  id: 'r1',
  at: '2026-11-29T22:00:00Z',
  turnId: 't1',
  message: {
    id: 'm1',
    role: 'assistant',
    content: [
      { type: 'text', text: 'Running the tests.' },
      { type: 'tool_use', id: 'tu1', name: 'Bash', input: { command: 'npm test' } },
    ],
  },
}
console.log(`warm parseCommand: ${perSecond(() => parseCommand(command)).toLocaleString('en-US')} /s`)
console.log(
  `warm parseLogRecord (assistant message): ${perSecond(() => parseLogRecord(record)).toLocaleString('en-US')} /s`,
)
