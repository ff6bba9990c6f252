// Sandbox benchmark: the start overhead per command. Runs `true` through the real shell wrapper
// unconfined, confined read-only and confined with the write profile (bubblewrap), in a git project,
// and reports medians; also the cost of planning a profile (resolveProfile, disk reads).
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { detectSandboxBackend, findShell, resolveProfile, runShellCommand, Sandbox } from '../src/index.js'

const RUNS = 30

const backend = await detectSandboxBackend()
if (backend.kind === 'none') {
  console.log(`sandbox: no backend (${backend.reason}); skipped`)
  process.exit(0)
}
const scratch = await mkdtemp(join(tmpdir(), 'z-sandbox-bench-'))
const project = join(scratch, 'project')
const home = join(scratch, 'home')
await mkdir(join(home, '.ssh'), { recursive: true })
await mkdir(join(home, '.npm'), { recursive: true })
await mkdir(project)
execFileSync('git', ['init', '-q'], { cwd: project })
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home }
const shellPath = findShell(env.PATH)
const sandbox = await Sandbox.create({ backend, settings: { enabled: true, allowNetwork: false }, home, env })
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const time = async (work: () => Promise<unknown>): Promise<number[]> => {
  const samples: number[] = []
  for (let index = 0; index < RUNS; index++) {
    const started = performance.now()
    await work()
    samples.push(performance.now() - started)
  }
  return samples
}
try {
  const plain = await time(() => runShellCommand('true', { cwd: project, env, shellPath }))
  const confined = (mode: 'read-only' | 'write') =>
    time(async () => {
      const prepared = await sandbox.prepare({ root: project, additionalDirectories: [], granted: mode })
      await runShellCommand('true', { cwd: project, env, shellPath, wrap: prepared!.wrap })
      await prepared!.release()
    })
  const readOnly = await confined('read-only')
  const write = await confined('write')
  const planning = await time(() =>
    resolveProfile({
      mode: 'write',
      root: project,
      additionalDirectories: [],
      home,
      tmpDir: sandbox.tmpDir,
      allowNetwork: false,
      env,
    }),
  )
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`
  console.log(`sandbox (${backend.kind}), median of ${RUNS}, \`true\` through the shell wrapper:`)
  console.log(`  unconfined:            ${fmt(median(plain))}`)
  console.log(`  confined, read-only:   ${fmt(median(readOnly))} (+${fmt(median(readOnly) - median(plain))})`)
  console.log(`  confined, write:       ${fmt(median(write))} (+${fmt(median(write) - median(plain))})`)
  console.log(`  resolveProfile (write): ${fmt(median(planning))}`)
} finally {
  await sandbox.dispose()
  await rm(scratch, { recursive: true, force: true })
}
