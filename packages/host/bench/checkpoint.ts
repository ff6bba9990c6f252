// Checkpoint benchmark: a 5,000-file project; times the first snapshot, an unchanged snapshot,
// a snapshot after 10 files changed, a diff and a restore.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkpointRepoDir, ShadowCheckpoints } from '../src/index.js'

const FILES = 5_000
const CHANGED = 10
const RUNS = 5

const scratch = await mkdtemp(join(tmpdir(), 'z-checkpoint-bench-'))
const project = join(scratch, 'project')
try {
  for (let index = 0; index < FILES; index++) {
    const dir = join(project, `pkg-${index % 50}`, `dir-${index % 7}`)
    await mkdir(dir, { recursive: true })
    await writeFile(
      join(dir, `file-${index}.ts`),
      `export const value${index} = ${index}\n${'// filler\n'.repeat(40)}`,
    )
  }
  const opened = await ShadowCheckpoints.open({
    projectRoot: project,
    gitDir: checkpointRepoDir(join(scratch, 'data'), project),
  })
  if (!opened.ok) throw new Error(opened.error.message)
  const checkpoints = opened.value
  const time = async <T>(work: () => Promise<T>): Promise<[number, T]> => {
    const started = performance.now()
    const result = await work()
    return [performance.now() - started, result]
  }
  const must = <T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
    if (!result.ok) throw new Error(result.error.message)
    return result.value
  }
  const [firstMs, first] = await time(() => checkpoints.snapshot())
  const base = must(first)
  const unchanged: number[] = []
  const changed: number[] = []
  let last = base.commit
  for (let run = 0; run < RUNS; run++) {
    const [ms, same] = await time(() => checkpoints.snapshot())
    if (!must(same).reused) throw new Error('an unchanged tree made a new commit')
    unchanged.push(ms)
    for (let index = 0; index < CHANGED; index++) {
      const file = (run * 97 + index * 13) % FILES
      await writeFile(
        join(project, `pkg-${file % 50}`, `dir-${file % 7}`, `file-${file}.ts`),
        `changed ${run}\n`,
      )
    }
    const [changedMs, next] = await time(() => checkpoints.snapshot())
    if (must(next).reused) throw new Error('a changed tree reused the last commit')
    changed.push(changedMs)
    last = must(next).commit
  }
  const [diffMs] = await time(() => checkpoints.diff(base.commit, last))
  const [restoreMs] = await time(() => checkpoints.restore(base.commit))
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
  console.log(`checkpoint of a ${FILES}-file tree`)
  console.log(`  first snapshot: ${firstMs.toFixed(0)} ms`)
  console.log(`  unchanged snapshot (median of ${RUNS}): ${median(unchanged).toFixed(0)} ms`)
  console.log(
    `  snapshot with ${CHANGED} changed files (median of ${RUNS}): ${median(changed).toFixed(0)} ms`,
  )
  console.log(`  diff of ${RUNS * CHANGED} changed files: ${diffMs.toFixed(0)} ms`)
  console.log(`  restore of ${RUNS * CHANGED} changed files: ${restoreMs.toFixed(0)} ms`)
} finally {
  await rm(scratch, { recursive: true, force: true })
}
