import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { BackgroundProcesses, childEnvironment, isProcessAlive } from '@z-engine/host'
import type { JobInfo } from '@z-engine/protocol'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { JobPort } from '../ports.js'
import { callTool, makeTestCtx, resultText, type TestCtx } from '../testing.js'
import { bashTool } from './bash.js'
import { jobKillTool } from './job-kill.js'
import { jobOutputTool } from './job-output.js'

/** A JobPort over host's real background processes (the engine's ShellJobs does the same). */
function hostJobs(): JobPort & { processes: BackgroundProcesses } {
  const processes = new BackgroundProcesses({ env: childEnvironment(process.env), killGraceMs: 500 })
  const toInfo = (info: ReturnType<BackgroundProcesses['list']>[number]): JobInfo => ({
    id: info.id,
    kind: 'shell',
    description: info.description ?? info.command,
    status: info.status,
    startedAt: info.startedAt,
    ...(info.exitCode !== undefined ? { exitCode: info.exitCode } : {}),
  })
  return {
    processes,
    spawnShell: async (command, options) => toInfo(processes.start(command, options)),
    read: async (id, options, signal) => {
      if (!processes.get(id)) return undefined
      await processes.waitForExit(id, options.waitMs ?? 0, signal)
      const read = processes.read(id)!
      const filter = options.filter === undefined ? undefined : new RegExp(options.filter)
      const output = filter
        ? read.output
            .split('\n')
            .filter((line) => filter.test(line))
            .join('\n')
        : read.output
      return { output, info: toInfo(read.info) }
    },
    kill: async (id) => {
      const info = await processes.kill(id)
      return info && toInfo(info)
    },
    list: () => processes.list().map(toInfo),
  }
}

let ctx: TestCtx
let jobs: ReturnType<typeof hostJobs>
beforeEach(() => {
  jobs = hostJobs()
  ctx = makeTestCtx({ ports: { jobs } })
})
afterEach(async () => {
  await jobs.processes.killAll()
  ctx.cleanup()
})

const pidsIn = (file: string): number[] => readFileSync(file, 'utf8').trim().split('\n').map(Number)

describe('Bash', () => {
  it('runs a command and keeps the cwd between calls', async () => {
    mkdirSync(join(ctx.projectRoot, 'sub'))
    const first = await callTool(bashTool, { command: 'cd sub && echo hi' }, ctx)
    expect(resultText(first)).toBe(`hi\nShell cwd is now ${join(ctx.projectRoot, 'sub')}`)
    expect(ctx.cwd).toBe(join(ctx.projectRoot, 'sub'))
    const second = await callTool(bashTool, { command: 'pwd' }, ctx)
    expect(resultText(second)).toBe(join(ctx.projectRoot, 'sub'))
  })
  it('starts over at the project root when the cwd was removed', async () => {
    mkdirSync(join(ctx.projectRoot, 'gone'))
    await callTool(bashTool, { command: 'cd gone' }, ctx)
    expect(ctx.cwd).toBe(join(ctx.projectRoot, 'gone'))
    rmdirSync(join(ctx.projectRoot, 'gone'))
    const result = await callTool(bashTool, { command: 'pwd' }, ctx)
    expect(resultText(result)).toContain('no longer exists')
    expect(resultText(result)).toContain(ctx.projectRoot)
    expect(ctx.cwd).toBe(ctx.projectRoot)
  })
  it('reports a non-zero exit as an error with the output', async () => {
    const result = await callTool(bashTool, { command: 'echo oops >&2; exit 3' }, ctx)
    expect(result.ok).toBe(false)
    expect(resultText(result)).toBe('oops\nExit code 3')
  })
  it('kills `sleep 100` and its children at the timeout; no process of the tree survives', async () => {
    const pidFile = join(ctx.projectRoot, 'pids')
    const command = `echo $$ > ${pidFile}; (sleep 100 & echo $! >> ${pidFile}; wait) & echo $! >> ${pidFile}; sleep 100 & echo $! >> ${pidFile}; wait`
    const started = Date.now()
    // Long enough for bash to start its four processes on a loaded machine, far below their 100 s.
    const result = await callTool(bashTool, { command, timeout: 2_000 }, ctx)
    expect(Date.now() - started).toBeLessThan(60_000)
    expect(!result.ok && result.error.code).toBe('timeout')
    expect(resultText(result)).toContain('timed out after 2000 ms')
    const pids = pidsIn(pidFile)
    expect(pids).toHaveLength(4)
    for (const pid of pids) expect(isProcessAlive(pid), `pid ${pid}`).toBe(false)
  })
  it('cancels with the signal', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 200)
    const result = await callTool(bashTool, { command: 'sleep 100' }, ctx, controller.signal)
    expect(resultText(result)).toContain('cancelled')
  })
  it('streams progress, strips terminal colors and spills long output', async () => {
    const small = makeTestCtx({ root: ctx.projectRoot, limits: { maxResultChars: 300 } })
    const result = await callTool(
      bashTool,
      { command: "printf '\\033[31mred\\033[0m\\n'; seq 1 2000" },
      small,
    )
    const text = resultText(result)
    expect(text.startsWith('red\n1\n')).toBe(true)
    expect(text).toContain('2000')
    expect(text).toContain(small.spilled[0]!.path)
    expect(small.progressUpdates.map((update) => update.output).join('')).toContain('1999')
    small.cleanup()
  })
  it('clamps the timeout to the maximum and previews the command', async () => {
    expect(await bashTool.preview({ command: 'ls' }, ctx)).toEqual({
      type: 'command',
      command: 'ls',
      cwd: ctx.cwd,
    })
    expect(bashTool.title({ command: 'npm test', description: 'Run tests' }, ctx)).toBe('Run tests')
    expect(bashTool.action({ command: 'ls' }, ctx)).toEqual({ type: 'execute', command: 'ls', cwd: ctx.cwd })
  })
  it('refuses an empty command and background jobs without a JobPort', async () => {
    expect((await callTool(bashTool, { command: ' ' }, ctx)).ok).toBe(false)
    const bare = makeTestCtx({ root: ctx.projectRoot })
    const result = await callTool(bashTool, { command: 'sleep 1', run_in_background: true }, bare)
    expect(!result.ok && result.error.code).toBe('jobs_unavailable')
  })
})

describe('background jobs: Bash run_in_background, JobOutput, JobKill', () => {
  it('reads a background job incrementally and waits for it to finish', async () => {
    // The rest waits for the test's go-ahead, so what each read sees is certain.
    const go = join(ctx.projectRoot, 'go')
    writeFileSync(
      join(ctx.projectRoot, 'script.sh'),
      `echo one\nwhile [ ! -e ${go} ]; do sleep 0.05; done\necho two\necho three\n`,
    )
    const started = await callTool(bashTool, { command: 'sh script.sh', run_in_background: true }, ctx)
    expect(started.ok).toBe(true)
    const jobId = started.ok ? String(started.output.details?.jobId) : ''
    // Until `one` arrives each read says there is no new output.
    await expect
      .poll(async () => resultText(await callTool(jobOutputTool, { job_id: jobId }, ctx)), {
        timeout: 30_000,
      })
      .toBe(`Job ${jobId} is running.\none`)
    writeFileSync(go, '')
    const second = resultText(
      await callTool(jobOutputTool, { job_id: jobId, wait_ms: 60_000, filter: 'thr' }, ctx),
    )
    expect(second).toBe(`Job ${jobId} exited with code 0.\nthree`)
    const third = resultText(await callTool(jobOutputTool, { job_id: jobId }, ctx))
    expect(third).toContain('no new output')
  })
  it('JobKill kills the whole tree', async () => {
    const pidFile = join(ctx.projectRoot, 'pids')
    const started = await callTool(
      bashTool,
      { command: `echo $$ > ${pidFile}; sleep 100 & echo $! >> ${pidFile}; wait`, run_in_background: true },
      ctx,
    )
    const jobId = started.ok ? String(started.output.details?.jobId) : ''
    await expect.poll(() => existsSync(pidFile) && pidsIn(pidFile).length, { timeout: 30_000 }).toBe(2)
    const killed = await callTool(jobKillTool, { job_id: jobId }, ctx)
    expect(resultText(killed)).toContain('stopped with its whole process tree')
    for (const pid of pidsIn(pidFile)) expect(isProcessAlive(pid)).toBe(false)
    expect(resultText(await callTool(jobOutputTool, { job_id: jobId }, ctx))).toContain('was killed')
  })
  it('gives clear errors for unknown jobs and bad filters', async () => {
    const unknown = await callTool(jobOutputTool, { job_id: 'bash_99' }, ctx)
    expect(resultText(unknown)).toContain('There are no background jobs')
    const bad = await callTool(jobOutputTool, { job_id: 'x', filter: '(' }, ctx)
    expect(!bad.ok && bad.error.code).toBe('invalid_filter')
    expect((await callTool(jobKillTool, { job_id: 'nope' }, ctx)).ok).toBe(false)
  })
})
