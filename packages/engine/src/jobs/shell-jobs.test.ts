import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { childEnvironment, isProcessAlive } from '@z-engine/host'
import type { JobInfo } from '@z-engine/protocol'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ShellJobs } from './shell-jobs.js'

let dir: string
let jobs: ShellJobs
const updates: JobInfo[] = []
const signal = new AbortController().signal

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'ze-jobs-')))
  updates.length = 0
  jobs = new ShellJobs({
    env: childEnvironment(process.env),
    onUpdate: (info) => updates.push(info),
    killGraceMs: 500,
  })
})
afterEach(async () => {
  await jobs.shutdown()
  rmSync(dir, { recursive: true, force: true })
})

describe('ShellJobs', () => {
  it('reads output incrementally, waits for the exit, and reports updates', async () => {
    // The rest waits for the test's go-ahead, so what each read sees is certain.
    const go = join(dir, 'go')
    const job = await jobs.spawnShell(
      `echo a; while [ ! -e ${go} ]; do sleep 0.05; done; echo b; echo skip; exit 2`,
      { cwd: dir, description: 'demo' },
    )
    expect(job).toMatchObject({ kind: 'shell', status: 'running', description: 'demo' })
    let first = ''
    await expect
      .poll(async () => (first += (await jobs.read(job.id, {}, signal))?.output ?? ''), { timeout: 30_000 })
      .toBe('a\n')
    writeFileSync(go, '')
    const done = await jobs.read(job.id, { waitMs: 60_000, filter: '^b' }, signal)
    expect(done?.output).toBe('b')
    expect(done?.info).toMatchObject({ status: 'exited', exitCode: 2 })
    expect((await jobs.read(job.id, {}, signal))?.output).toBe('')
    expect(updates.map((info) => info.status)).toEqual(['running', 'exited'])
  })
  it('kills the whole tree', async () => {
    const pidFile = join(dir, 'pids')
    const job = await jobs.spawnShell(`echo $$ > ${pidFile}; sleep 100 & echo $! >> ${pidFile}; wait`, {
      cwd: dir,
    })
    await expect
      .poll(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim().split('\n').length, {
        timeout: 30_000,
      })
      .toBe(2)
    const killed = await jobs.kill(job.id)
    expect(killed?.status).toBe('killed')
    const pids = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number)
    expect(pids).toHaveLength(2)
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(false)
    expect(updates.at(-1)?.status).toBe('killed')
  })
  it('returns undefined for unknown jobs and lists known ones', async () => {
    expect(await jobs.read('nope', {}, signal)).toBeUndefined()
    expect(await jobs.kill('nope')).toBeUndefined()
    await jobs.spawnShell('true', { cwd: dir })
    expect(jobs.list()).toHaveLength(1)
  })
})
