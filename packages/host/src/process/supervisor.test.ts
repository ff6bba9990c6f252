import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { isProcessAlive } from './kill-tree.js'
import { runProcess } from './run-process.js'
import { groupHasMembers, killSupervisedGroups } from './supervisor.js'

const dir = mkdtempSync(join(tmpdir(), 'ze-supervisor-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
const HOST_ENTRY = resolve(import.meta.dirname, '../index.ts')

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (check()) return true
    await new Promise((done) => setTimeout(done, 25))
  }
  return check()
}

/** Whether process `a` started before `b`: by start time (clock ticks), then by pid within one tick. */
function startedBefore(a: number, b: number): boolean {
  const ticks = (pid: number) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Field 22; the fields after the command name (which may hold spaces) start at field 3.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19])
  }
  const [ta, tb] = [ticks(a), ticks(b)]
  return ta !== tb ? ta < tb : a < b
}

describe.runIf(process.platform === 'linux')('the watchdog', () => {
  it('kills a command tree when the engine process is SIGKILLed', async () => {
    // A separate engine process: starts a shell that backgrounds a sleeper, prints both pids, waits.
    const script = `
      import { startProcess, watchdogPid } from ${JSON.stringify(HOST_ENTRY)}
      const started = startProcess({
        file: '/bin/sh',
        args: ['-c', 'sleep 300 & echo child=$!; sleep 300'],
        cwd: ${JSON.stringify(dir)},
        env: { PATH: process.env.PATH },
        onOutput: (chunk) => process.stdout.write(chunk),
      })
      process.stdout.write('leader=' + started.pid + ' watchdog=' + watchdogPid() + '\\n')
      setInterval(() => {}, 1000)
    `
    const engine = spawn(
      process.execPath,
      ['--conditions=@z-engine/source', '--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: resolve(import.meta.dirname, '../../../..'), stdio: ['ignore', 'pipe', 'inherit'] },
    )
    let out = ''
    engine.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    expect(await until(() => /leader=\d+/.test(out) && /child=\d+/.test(out), 60_000)).toBe(true)
    const leader = Number(/leader=(\d+)/.exec(out)![1])
    const child = Number(/child=(\d+)/.exec(out)![1])
    expect(isProcessAlive(leader) && isProcessAlive(child)).toBe(true)
    // The watchdog was forked before the command, not after it: forking a large engine can take
    // longer than a short command needs to start its children, and a kill in that gap would leave
    // the group unregistered (the CLI's SIGKILL test failed about half the time that way).
    // Compared by start time, not pid: pids wrap (pid_max may be 32768) on a busy machine.
    expect(startedBefore(Number(/watchdog=(\d+)/.exec(out)![1]), leader)).toBe(true)

    engine.kill('SIGKILL')
    // The watchdog sends SIGTERM at once (SIGKILL a second later to what ignores it).
    expect(await until(() => !isProcessAlive(leader) && !isProcessAlive(child), 30_000)).toBe(true)
    expect(groupHasMembers(leader)).toBe(false)
  })

  it('kills what a finished command left in its group on request (shutdown)', async () => {
    const result = await runProcess({ file: '/bin/sh', args: ['-c', 'sleep 300 & echo $!'], cwd: dir, env })
    const leftover = Number(result.output.trim())
    expect(isProcessAlive(leftover)).toBe(true)
    await killSupervisedGroups(200)
    expect(await until(() => !isProcessAlive(leftover), 60_000)).toBe(true)
  })

  it('kills leftovers at exit with killLeftovers, and feeds stdin and separate streams', async () => {
    const result = await runProcess({
      file: '/bin/sh',
      args: ['-c', 'sleep 300 & echo $! ; cat; echo oops >&2'],
      cwd: dir,
      env,
      stdin: 'from stdin',
      separateStreams: true,
      killLeftovers: true,
      killGraceMs: 200,
    })
    const [leftover] = result.stdout!.trim().split('\n')
    expect(result.stdout).toContain('from stdin')
    expect(result.stderr).toBe('oops\n')
    expect(isProcessAlive(Number(leftover))).toBe(false)
    expect(groupHasMembers(result.pid!)).toBe(false)
  })
})
