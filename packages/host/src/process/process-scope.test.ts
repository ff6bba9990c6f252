import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { BackgroundProcesses } from './background.js'
import { isProcessAlive } from './kill-tree.js'
import { ProcessScope } from './process-scope.js'
import { runShellCommand } from './shell.js'
import { startProcess } from './start-process.js'

const dir = mkdtempSync(join(tmpdir(), 'ze-scope-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' }

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (check()) return true
    await new Promise((done) => setTimeout(done, 25))
  }
  return check()
}

describe.runIf(process.platform === 'linux')('a process scope', () => {
  it("kills what its finished commands left running, a running one, and no other scope's", async () => {
    const scope = new ProcessScope()
    const other = new ProcessScope()
    // A subshell's child is reparented when the subshell exits, but stays in the command's group.
    const subshell = await runShellCommand('(sleep 300 & echo $! > sub.pid); cat sub.pid', {
      cwd: dir,
      env,
      scope,
    })
    const backgrounded = await runShellCommand('sleep 301 & echo $!', { cwd: dir, env, scope })
    const jobs = new BackgroundProcesses({ env, scope })
    const job = jobs.start('sleep 302', { cwd: dir })
    const running = startProcess({ file: 'sleep', args: ['303'], cwd: dir, env, onOutput: () => {}, scope })
    const unrelated = await runShellCommand('sleep 304 & echo $!', { cwd: dir, env, scope: other })
    const pids = [subshell, backgrounded].map((result) => Number(result.output.trim()))
    pids.push(job.pid!, running.pid!)
    const otherPid = Number(unrelated.output.trim())
    expect([...pids, otherPid].every(isProcessAlive)).toBe(true)

    await scope.killAll(200)
    expect(await until(() => !pids.some(isProcessAlive), 60_000)).toBe(true)
    expect(isProcessAlive(otherPid)).toBe(true)
    await other.killAll(200)
    expect(await until(() => !isProcessAlive(otherPid), 60_000)).toBe(true)
  })

  it('kills a command started after it was closed, and forgets groups that ended', async () => {
    const scope = new ProcessScope()
    const done = await runShellCommand('true', { cwd: dir, env, scope })
    expect(done.exitCode).toBe(0)
    // One more start prunes the finished, empty group.
    await runShellCommand('true', { cwd: dir, env, scope })
    expect(scope.size).toBeLessThanOrEqual(1)
    await scope.killAll(200)
    const late = startProcess({ file: 'sleep', args: ['305'], cwd: dir, env, onOutput: () => {}, scope })
    expect(await until(() => !isProcessAlive(late.pid!), 60_000)).toBe(true)
  })
})
