// Nested-protected-files benchmark (issue 34): what the scan before and after a write-confined
// command costs, and the whole per-command overhead (median of 20 write-confined `true`), in a given
// project (default: this repository) and in a generated 20k-file tree with and without git.
// Usage: tsx packages/host/bench/nested-scan.ts [project]
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { detectSandboxBackend, findShell, runShellCommand, Sandbox } from '../src/index.js'
import { scanNested } from '../src/sandbox/nested-protected.js'

const RUNS = 20
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const time = async (work: () => Promise<unknown>): Promise<number> => {
  const samples: number[] = []
  for (let index = 0; index < RUNS; index++) {
    const started = performance.now()
    await work()
    samples.push(performance.now() - started)
  }
  return median(samples)
}
const scratch = await mkdtemp(join(tmpdir(), 'z-nested-bench-'))
const home = join(scratch, 'home')
await mkdir(home)
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home }
const shellPath = findShell(env.PATH)

/** A tree of 20,000 files in 200 folders of 100 files (a few protected files among them). */
async function tree(name: string, git: boolean): Promise<string> {
  const root = join(scratch, name)
  for (let dir = 0; dir < 200; dir++) {
    await mkdir(join(root, `d${dir}`, 'src'), { recursive: true })
    for (let file = 0; file < 100; file++) await writeFile(join(root, `d${dir}`, 'src', `f${file}.ts`), '\n')
  }
  await writeFile(join(root, 'd7', '.npmrc'), '\n')
  if (git) {
    execFileSync('git', ['init', '-q'], { cwd: root })
    execFileSync('git', ['add', '.'], { cwd: root })
  }
  return root
}

try {
  const backend = await detectSandboxBackend()
  const sandbox =
    backend.kind === 'none'
      ? undefined
      : await Sandbox.create({ backend, settings: { enabled: true, allowNetwork: false }, home, env })
  const projects: Array<[string, string]> = [
    ['this repository', resolve(process.argv[2] ?? '.')],
    ['20k files, git', await tree('git', true)],
    ['20k files, no git', await tree('plain', false)],
  ]
  for (const [label, root] of projects) {
    const scan = await time(() => scanNested(root))
    const found = (await scanNested(root)).paths.size
    let line = `${label}: scan ${scan.toFixed(1)} ms (${found} protected paths below the top level)`
    if (sandbox) {
      const write = await time(async () => {
        const prepared = await sandbox.prepare({ root, additionalDirectories: [], granted: 'write' })
        await runShellCommand('true', { cwd: root, env, shellPath, wrap: prepared!.wrap })
        await prepared!.release()
      })
      line += `; write-confined \`true\` ${write.toFixed(1)} ms`
    }
    console.log(line)
  }
  await sandbox?.dispose()
} finally {
  await rm(scratch, { recursive: true, force: true })
}
