import { execFileSync, spawn } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore, type ReplayProblem, readJsonl, sessionPaths } from '../src/index.js'

const REPO_ROOT = resolve(import.meta.dirname, '../../..')
const WRITER = resolve(import.meta.dirname, 'crash-writer.ts')
const KILLS = 50
/** Aimed kills beyond KILLS, at most, while none has torn a record yet. */
const MAX_EXTRA_AIMED = 200

let dataDir: string
let writerArgs: string[]
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'z-store-crash-'))
  // Bundling the writer once makes each of the 50 runs a plain `node` start instead of a tsx one.
  const esbuild = join(REPO_ROOT, 'node_modules/.bin/esbuild')
  const bundle = join(dataDir, 'crash-writer.mjs')
  if (existsSync(esbuild)) {
    execFileSync(esbuild, [
      WRITER,
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--target=node20',
      '--conditions=@z-engine/source',
      `--outfile=${bundle}`,
      '--log-level=warning',
    ])
    writerArgs = [bundle]
  } else {
    writerArgs = ['--conditions=@z-engine/source', '--import', 'tsx', WRITER]
  }
})
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

/**
 * Runs the writer and kills it with SIGKILL after a random delay from start-up or, when
 * `aimAtBigWrite`, as soon as a big record starts reaching the file; returns the acknowledged ids.
 */
function runAndKill(
  sessionId: string,
  prefix: string,
  delayMs: number,
  aimAtBigWrite: boolean,
): Promise<string[]> {
  const logPath = sessionPaths(dataDir, sessionId).log
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [...writerArgs, dataDir, sessionId, prefix], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    let stderr = ''
    let armed = false
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      if (armed) return
      if (!aimAtBigWrite && output.startsWith('ready\n')) {
        armed = true
        setTimeout(() => child.kill('SIGKILL'), delayMs)
      } else if (aimAtBigWrite && output.includes('\nbig\n')) {
        armed = true
        // Watch the file grow and kill while the big record is still being copied in (the kernel
        // extends the file page by page), so torn writes really happen rather than by luck.
        const before = statSync(logPath).size
        const deadline = Date.now() + 2000
        while (Date.now() < deadline && statSync(logPath).size <= before) {}
        child.kill('SIGKILL')
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
      resolvePromise(lines.slice(1).filter((line) => line !== 'big'))
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
    // Five sessions, each killed and resumed ten times: every resume appends after a torn tail.
    const sessions = Array.from({ length: 5 }, (_, index) => ({
      id: `crash-${index}`,
      expectedIds: [] as string[],
      problemsBefore: 0,
    }))
    let tornSeen = 0
    let survived = 0
    const killOnce = async (kill: number, aim: boolean) => {
      const session = sessions[kill % sessions.length]!
      const log = sessionPaths(dataDir, session.id).log
      const acked = await runAndKill(session.id, `k${kill}`, Math.floor(Math.random() * 150), aim)
      const replay = await store.replay(session.id)
      expect(replay.ok).toBe(true)
      if (!replay.ok) return
      const { ids, problems } = await idsInLog(log)
      // Every acknowledged record survived, in order; at most one more (written, not yet acked).
      const run = ids.filter((id) => id.startsWith(`k${kill}-`))
      expect(run.slice(0, acked.length)).toEqual(acked)
      expect(run.length - acked.length).toBeGreaterThanOrEqual(0)
      expect(run.length - acked.length).toBeLessThanOrEqual(1)
      session.expectedIds = [...session.expectedIds, ...run]
      expect(ids.filter((id) => /^k\d+-/.test(id))).toEqual(session.expectedIds)
      // Each crash adds at most one problem: the torn record, reported with its offset.
      expect(problems.length - session.problemsBefore).toBeLessThanOrEqual(1)
      for (const problem of problems.slice(session.problemsBefore)) {
        expect(problem.kind).toBe('torn')
        expect(problem.offset).toBeGreaterThan(0)
        expect(problem.offset).toBeLessThan((await stat(log)).size)
        tornSeen++
      }
      expect(replay.value.problems).toEqual(problems)
      expect(replay.value.snapshot.recordCount).toBe(ids.length)
      session.problemsBefore = problems.length
    }
    // Half the kills land at any moment; the other half while a big record is being written.
    for (let kill = 0; kill < KILLS; kill++) await killOnce(kill, kill % 2 === 1)
    // Whether an aimed kill lands mid-write depends on the scheduler (a loaded machine may run the
    // whole copy before this process looks): aim more until one has, so the torn path surely runs.
    let extra = 0
    while (tornSeen === 0 && extra < MAX_EXTRA_AIMED) await killOnce(KILLS + extra++, true)
    for (const session of sessions) survived += session.expectedIds.length
    // Aimed kills land inside a multi-megabyte write, so the torn-record path really runs.
    expect(tornSeen).toBeGreaterThan(0)
    console.log(
      `crash test: ${KILLS + extra} kills, ${survived} records survived, ${tornSeen} torn lines reported`,
    )
  }, 600_000)
})
