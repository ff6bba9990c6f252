import { spawn } from 'node:child_process'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore, type ReplayProblem, readJsonl, sessionPaths } from '../src/index.js'

const REPO_ROOT = resolve(import.meta.dirname, '../../..')
const WRITER = resolve(import.meta.dirname, 'crash-writer.ts')
const KILLS = 50

let dataDir: string
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'z-store-crash-'))
})
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

/** Runs the writer, kills it with SIGKILL after a random delay, and returns the ids it acknowledged. */
function runAndKill(sessionId: string, prefix: string, delayMs: number): Promise<string[]> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@z-engine/source', '--import', 'tsx', WRITER, dataDir, sessionId, prefix],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let output = ''
    let stderr = ''
    let timer: NodeJS.Timeout | undefined
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      if (timer === undefined && output.startsWith('ready\n')) {
        timer = setTimeout(() => child.kill('SIGKILL'), delayMs)
      }
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8')
    })
    child.on('error', reject)
    child.on('close', (_code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer exited without being killed: ${stderr}`))
      // A line cut off in the pipe was never a complete acknowledgement.
      const lines = output.split('\n').slice(0, -1)
      resolvePromise(lines.slice(1))
    })
  })
}

async function idsInLog(path: string): Promise<{ ids: string[]; problems: ReplayProblem[] }> {
  const ids: string[] = []
  const problems: ReplayProblem[] = []
  for await (const entry of readJsonl(path, 'log.jsonl')) {
    if (entry.type === 'problem') problems.push(entry.problem)
    else ids.push((entry.value as { id: string }).id)
  }
  return { ids, problems }
}

describe('crash safety', () => {
  it(`survives ${KILLS} SIGKILLs at random moments, losing at most the record being written`, async () => {
    const store = openStore({ dataDir })
    const sessionId = 'crash-session'
    const log = sessionPaths(dataDir, sessionId).log
    let expectedIds: string[] = []
    let problemsBefore = 0
    let tornSeen = 0
    for (let kill = 0; kill < KILLS; kill++) {
      const acked = await runAndKill(sessionId, `k${kill}`, Math.floor(Math.random() * 150))
      const replay = await store.replay(sessionId)
      expect(replay.ok).toBe(true)
      if (!replay.ok) return
      const { ids, problems } = await idsInLog(log)
      // Every acknowledged record survived, in order; at most one more (written, not yet acked).
      const run = ids.filter((id) => id.startsWith(`k${kill}-`))
      expect(run.slice(0, acked.length)).toEqual(acked)
      expect(run.length - acked.length).toBeGreaterThanOrEqual(0)
      expect(run.length - acked.length).toBeLessThanOrEqual(1)
      expectedIds = [...expectedIds, ...run]
      expect(ids.filter((id) => /^k\d+-/.test(id))).toEqual(expectedIds)
      // Each crash adds at most one problem: the torn record, reported with its offset.
      expect(problems.length - problemsBefore).toBeLessThanOrEqual(1)
      for (const problem of problems.slice(problemsBefore)) {
        expect(problem.kind).toBe('torn')
        expect(problem.offset).toBeGreaterThan(0)
        expect(problem.offset).toBeLessThan((await stat(log)).size)
        tornSeen++
      }
      expect(replay.value.problems).toEqual(problems)
      expect(replay.value.snapshot.recordCount).toBe(ids.length)
      problemsBefore = problems.length
    }
    // The kill lands inside a multi-megabyte write often enough that torn lines really occur.
    console.log(
      `crash test: ${KILLS} kills, ${expectedIds.length} records survived, ${tornSeen} torn lines reported`,
    )
  }, 300_000)
})
