/**
 * Issue 20 benchmark: the workspace fingerprint of a 5,000-file git tree (tracked and untracked
 * files): cold (every file hashed), warm with nothing changed (one listing and one lstat per file),
 * and after one file changed. Median of 5 each.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WorkspaceFingerprint } from '../src/verification/fingerprint.js'

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir() }
const root = mkdtempSync(join(tmpdir(), 'ze-bench-fp-'))
for (let folder = 0; folder < 50; folder++) {
  mkdirSync(join(root, `pkg${folder}`, 'src'), { recursive: true })
  for (let file = 0; file < 100; file++)
    writeFileSync(
      join(root, `pkg${folder}`, 'src', `file${file}.ts`),
      `export const value${file} = ${folder * 100 + file}\n`.repeat(40),
    )
}
execFileSync('git', ['init', '-q'], { cwd: root })
// Half tracked, half untracked: both count.
execFileSync('git', ['add', ...Array.from({ length: 25 }, (_, index) => `pkg${index}`)], { cwd: root })

const cold: number[] = []
const warm: number[] = []
const changed: number[] = []
for (let run = 0; run < 5; run++) {
  const fingerprint = new WorkspaceFingerprint(root, env)
  let started = performance.now()
  const first = await fingerprint.compute()
  cold.push(performance.now() - started)
  started = performance.now()
  if ((await fingerprint.compute()) !== first) throw new Error('an unchanged tree changed its fingerprint')
  warm.push(performance.now() - started)
  writeFileSync(join(root, 'pkg3', 'src', 'file7.ts'), `export const run = ${run}\n`)
  started = performance.now()
  if ((await fingerprint.compute()) === first) throw new Error('a change did not change the fingerprint')
  changed.push(performance.now() - started)
}
rmSync(root, { recursive: true, force: true })
const show = (values: number[]) =>
  `${median(values).toFixed(0)} ms [${values.map((v) => v.toFixed(0)).join(', ')}]`
console.log(
  `fingerprint (5,000 files, 2.5k tracked + 2.5k untracked): cold ${show(cold)}; unchanged ${show(warm)}; one file changed ${show(changed)}`,
)
