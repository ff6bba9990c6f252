import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BackgroundProcesses } from './background.js'
import { childEnvironment, envNameMatcher, isSecretLikeName } from './env-policy.js'
import { isProcessAlive } from './kill-tree.js'
import { HeadTailBuffer } from './output-buffer.js'
import { RingBuffer } from './ring-buffer.js'
import { clampTimeout, runProcess } from './run-process.js'
import { PersistentShell, runShellCommand } from './shell.js'

const env = childEnvironment(process.env)
let dir: string

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'ze-proc-')))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

/** Pids a shell script wrote to a file, one per line. */
function pidsIn(file: string): number[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(Number)
}

describe('HeadTailBuffer', () => {
  it('keeps everything under the limit', () => {
    const buffer = new HeadTailBuffer(10, 10)
    buffer.append(Buffer.from('hello'))
    expect(buffer.render()).toEqual({ text: 'hello', totalBytes: 5, omittedBytes: 0 })
  })
  it('keeps head and tail with a marker', () => {
    const buffer = new HeadTailBuffer(4, 4)
    for (const part of ['abcd', 'efgh', 'ijkl', 'mnop']) buffer.append(Buffer.from(part))
    const out = buffer.render()
    expect(out.text).toBe('abcd\n[... 8 bytes of output omitted ...]\nmnop')
    expect(out.omittedBytes).toBe(8)
  })
  it('never splits a UTF-8 character', () => {
    const buffer = new HeadTailBuffer(2, 2)
    buffer.append(Buffer.from('éééé'))
    const out = buffer.render()
    expect(out.text).not.toContain('\uFFFD')
    expect(out.text.startsWith('é')).toBe(true)
  })
})

describe('RingBuffer', () => {
  it('reads incrementally and reports dropped bytes', () => {
    const ring = new RingBuffer(8)
    ring.append(Buffer.from('abc'))
    const first = ring.readFrom(0)
    expect(first).toEqual({ text: 'abc', next: 3, droppedBytes: 0 })
    ring.append(Buffer.from('defghijklm'))
    const second = ring.readFrom(first.next)
    expect(second.text).toBe('fghijklm')
    expect(second.droppedBytes).toBe(2)
    expect(ring.readFrom(second.next).text).toBe('')
  })
  it('holds back a split character until it is complete', () => {
    const ring = new RingBuffer(64)
    const bytes = Buffer.from('aé')
    ring.append(bytes.subarray(0, 2))
    const first = ring.readFrom(0)
    expect(first.text).toBe('a')
    ring.append(bytes.subarray(2))
    expect(ring.readFrom(first.next).text).toBe('é')
  })
})

describe('environment policy', () => {
  it('recognizes secret-looking names', () => {
    for (const name of [
      'ANTHROPIC_API_KEY',
      'GITHUB_TOKEN',
      'AWS_SECRET_ACCESS_KEY',
      'DB_PASSWORD',
      'NPM_TOKEN',
    ]) {
      expect(isSecretLikeName(name), name).toBe(true)
    }
    for (const name of [
      'PATH',
      'HOME',
      'SSH_AUTH_SOCK',
      'MONKEY',
      'KEYBOARD_LAYOUT',
      'TOKENIZERS_PARALLELISM',
    ]) {
      expect(isSecretLikeName(name), name).toBe(false)
    }
  })
  it('passes only the core allowlist by default, plus allowed names and globs', () => {
    const child = childEnvironment(
      {
        PATH: '/bin',
        HOME: '/h',
        LC_ALL: 'C',
        GOPATH: '/go',
        DATABASE_URL: 'postgres://u:p@h/db',
        SENTRY_DSN: 'https://k@sentry.io/1',
        NODE_OPTIONS: '--require ./evil.js',
        SSH_AUTH_SOCK: '/tmp/agent.sock',
        MY_TOOL_MODE: 'fast',
        MY_TOOL_LEVEL: '3',
      },
      { allow: ['MY_TOOL_*'], set: { FOO: 'bar' } },
    )
    expect(child).toEqual({
      PATH: '/bin',
      HOME: '/h',
      LC_ALL: 'C',
      GOPATH: '/go',
      MY_TOOL_MODE: 'fast',
      MY_TOOL_LEVEL: '3',
      FOO: 'bar',
      PAGER: 'cat',
      GIT_PAGER: 'cat',
      GIT_TERMINAL_PROMPT: '0',
      GIT_EDITOR: 'true',
      Z_ENGINE: '1',
    })
  })
  it('never passes the engine credentials, even when allowed, set or inherited whole', () => {
    const base = { PATH: '/bin', OPENAI_API_KEY: 'sk-1', MY_GATEWAY: 'g', NPM_TOKEN: 't' }
    const never = ['OPENAI_API_KEY', 'MY_GATEWAY']
    for (const policy of [
      { allow: ['*'], never },
      { inherit: 'all' as const, stripSecrets: false, never },
      { set: { OPENAI_API_KEY: 'x' }, never },
    ]) {
      const child = childEnvironment(base, policy)
      expect(child.OPENAI_API_KEY).toBeUndefined()
      expect(child.MY_GATEWAY).toBeUndefined()
    }
    expect(childEnvironment(base, { allow: ['NPM_TOKEN'], never }).NPM_TOKEN).toBe('t')
  })
  it('inherits everything but secret-looking names with inherit all; deny and includeOnly filter', () => {
    const base = { PATH: '/bin', OPENAI_API_KEY: 'sk-1', NPM_TOKEN: 't', EXTRA: 'x', OTHER: 'o' }
    const child = childEnvironment(base, { inherit: 'all', allow: ['NPM_TOKEN'], deny: ['EXTRA'] })
    expect(child).toMatchObject({ PATH: '/bin', NPM_TOKEN: 't', OTHER: 'o' })
    expect(child.OPENAI_API_KEY).toBeUndefined()
    expect(child.EXTRA).toBeUndefined()
    const only = childEnvironment(base, { inherit: 'all', includeOnly: ['P*'] })
    expect(only.PATH).toBe('/bin')
    expect(only.OTHER).toBeUndefined()
  })
  it('inherits nothing with inherit none', () => {
    const child = childEnvironment({ PATH: '/bin', HOME: '/h' }, { inherit: 'none', set: { A: '1' } })
    expect(child.PATH).toBeUndefined()
    expect(child.A).toBe('1')
    expect(child.GIT_TERMINAL_PROMPT).toBe('0')
  })
  it('matches globs literally apart from * and ?', () => {
    const match = envNameMatcher(['A.B', 'C?', 'D*'])
    expect(match('A.B')).toBe(true)
    expect(match('AXB')).toBe(false)
    expect(match('C1')).toBe(true)
    expect(match('C12')).toBe(false)
    expect(match('DX_Y')).toBe(true)
  })
  it('is what a real child process sees (env printed by the child)', async () => {
    const result = await runProcess({
      file: '/usr/bin/env',
      args: [],
      cwd: dir,
      env: childEnvironment(
        { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-test-value', DATABASE_URL: 'postgres://u:p@h/db' },
        { never: ['ANTHROPIC_API_KEY'] },
      ),
    })
    const names = result.output
      .trim()
      .split('\n')
      .map((line) => line.slice(0, line.indexOf('=')))
    expect(names).toContain('PATH')
    expect(names).toContain('PAGER')
    expect(names).not.toContain('ANTHROPIC_API_KEY')
    expect(names).not.toContain('DATABASE_URL')
    expect(result.output).not.toContain('sk-ant-test-value')
  })
})

describe('runProcess', () => {
  it('captures interleaved stdout and stderr and the exit code', async () => {
    const result = await runProcess({
      file: '/bin/sh',
      args: ['-c', 'echo out; echo err >&2; exit 3'],
      cwd: dir,
      env,
    })
    expect(result.exitCode).toBe(3)
    expect(result.output).toContain('out\n')
    expect(result.output).toContain('err\n')
    expect(result.timedOut).toBe(false)
  })
  it('keeps head and tail of long output', async () => {
    const result = await runProcess({
      file: '/bin/sh',
      args: ['-c', 'seq 1 100000'],
      cwd: dir,
      env,
      headBytes: 100,
      tailBytes: 100,
    })
    expect(result.output.startsWith('1\n2\n')).toBe(true)
    expect(result.output.endsWith('99999\n100000\n')).toBe(true)
    expect(result.output).toContain('bytes of output omitted')
    expect(result.outputBytes).toBeGreaterThan(500_000)
  })
  it('reports a missing program as a spawn error', async () => {
    const result = await runProcess({ file: join(dir, 'nope'), args: [], cwd: dir, env })
    expect(result.spawnError).toMatch(/ENOENT/)
  })
  it('clamps timeouts to 10 minutes', () => {
    expect(clampTimeout(undefined)).toBe(120_000)
    expect(clampTimeout(10_000_000)).toBe(600_000)
    expect(clampTimeout(0)).toBe(1)
  })
  it('kills the whole tree at the timeout; no process of it survives', async () => {
    const pidFile = join(dir, 'pids')
    const script = `echo $$ > ${pidFile}; (sleep 100 & echo $! >> ${pidFile}; wait) & echo $! >> ${pidFile}; sleep 100 & echo $! >> ${pidFile}; wait`
    const started = Date.now()
    const result = await runProcess({
      file: '/bin/bash',
      args: ['-c', script],
      cwd: dir,
      env,
      // Long enough for bash to start its four processes on a loaded machine, far below their 100 s.
      timeoutMs: 2_000,
    })
    expect(result.timedOut).toBe(true)
    expect(Date.now() - started).toBeLessThan(60_000)
    const pids = pidsIn(pidFile)
    expect(pids.length).toBe(4)
    for (const pid of pids) expect(isProcessAlive(pid), `pid ${pid}`).toBe(false)
  })
  it('kills a child that escaped the process group (setsid) and ignores SIGTERM', async () => {
    const pidFile = join(dir, 'pids')
    const script = `setsid sh -c 'trap "" TERM; echo $$ > ${pidFile}; while :; do sleep 1; done' & sleep 100`
    const result = await runProcess({
      file: '/bin/bash',
      args: ['-c', script],
      cwd: dir,
      env,
      // Long enough for the escaped child to start and write its pid on a loaded machine.
      timeoutMs: 2_000,
      killGraceMs: 300,
    })
    expect(result.timedOut).toBe(true)
    const [escaped] = pidsIn(pidFile)
    expect(escaped).toBeGreaterThan(0)
    expect(isProcessAlive(escaped!)).toBe(false)
  })
  it('kills the tree when aborted', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 200)
    const result = await runProcess({
      file: '/bin/sh',
      args: ['-c', 'sleep 100'],
      cwd: dir,
      env,
      signal: controller.signal,
    })
    expect(result.aborted).toBe(true)
    expect(result.pid && isProcessAlive(result.pid)).toBe(false)
  })
  it('returns when a background grandchild keeps the pipes open', async () => {
    const pidFile = join(dir, 'pids')
    const started = Date.now()
    const result = await runProcess({
      file: '/bin/sh',
      args: ['-c', `sleep 300 & echo $! > ${pidFile}; echo done`],
      cwd: dir,
      env,
    })
    expect(result.output).toBe('done\n')
    // Not when the grandchild ends (300 s): this bound leaves a loaded machine a minute.
    expect(Date.now() - started).toBeLessThan(60_000)
    process.kill(pidsIn(pidFile)[0]!, 'SIGKILL')
  })
})

describe('shell', () => {
  it('persists the working directory between calls', async () => {
    const shell = new PersistentShell({ cwd: dir, fallbackCwd: dir, env })
    await shell.run('mkdir -p a/b && cd a/b')
    expect(shell.cwd).toBe(join(dir, 'a/b'))
    const pwd = await shell.run('pwd')
    expect(pwd.output.trim()).toBe(join(dir, 'a/b'))
    await shell.run('cd .. && exit 4')
    expect(shell.cwd).toBe(join(dir, 'a'))
  })
  it('leaves the cwd unchanged when a command fails to parse or is killed', async () => {
    const shell = new PersistentShell({ cwd: dir, fallbackCwd: dir, env })
    const bad = await shell.run('if then fi')
    expect(bad.exitCode).not.toBe(0)
    expect(shell.cwd).toBe(dir)
    const killed = await shell.run('cd /tmp && sleep 100', { timeoutMs: 300 })
    expect(killed.timedOut).toBe(true)
    expect(shell.cwd).toBe(dir)
  })
  it('falls back when the tracked directory was removed', async () => {
    const shell = new PersistentShell({ cwd: dir, fallbackCwd: dir, env })
    await shell.run('mkdir gone && cd gone')
    rmSync(join(dir, 'gone'), { recursive: true })
    const result = await shell.run('pwd')
    expect(result.cwdReset).toBe(true)
    expect(result.output.trim()).toBe(dir)
  })
  it('does not let the command see or forge the report channel', async () => {
    const result = await runShellCommand('echo /etc >&3; echo "$1"; cd /', { cwd: dir, env })
    expect(result.output).toContain('Bad file descriptor')
    expect(result.cwd).toBe('/')
  })
  it('runs the command only after its go line, with an empty stdin and no fd 4', async () => {
    const ran = await runShellCommand('cat; echo "done${__z_engine_go:-}" >&4', { cwd: dir, env })
    expect(ran.output).toContain('Bad file descriptor')
    expect(ran.output).not.toContain('done')
    // A wrapper that never delivers the go line (as when the engine dies before sending it).
    const marker = join(dir, 'ran-without-go')
    const held = await runShellCommand(`touch ${marker}`, {
      cwd: dir,
      env,
      wrap: (argv) => ['/bin/sh', '-c', 'exec "$@" 4</dev/null', 'drop-gate', ...argv],
    })
    expect(held.exitCode).toBe(125)
    expect(existsSync(marker)).toBe(false)
  })
  it('leaves no report-channel error in the output of an interrupted command', async () => {
    const controller = new AbortController()
    const result = await runShellCommand('echo started; sleep 100', {
      cwd: dir,
      env,
      signal: controller.signal,
      onOutput: (text) => {
        if (text.includes('started')) controller.abort()
      },
    })
    expect(result.aborted).toBe(true)
    expect(result.output).toBe('started\n')
    expect(result.cwd).toBe(dir)
  })
  it('streams output for progress', async () => {
    const parts: string[] = []
    await runShellCommand('echo one; echo two', { cwd: dir, env, onOutput: (text) => parts.push(text) })
    expect(parts.join('')).toBe('one\ntwo\n')
  })
})

describe('BackgroundProcesses', () => {
  it('reads output incrementally and reports the exit', async () => {
    const changes: string[] = []
    const manager = new BackgroundProcesses({ env, onChange: (info) => changes.push(info.status) })
    // The second line waits for the test's go-ahead, so what each read sees is certain.
    const go = join(dir, 'go')
    const info = manager.start(`echo first; while [ ! -e ${go} ]; do sleep 0.05; done; echo second; exit 7`, {
      cwd: dir,
      description: 'demo',
    })
    expect(info.status).toBe('running')
    let first = ''
    await expect
      .poll(() => (first += manager.read(info.id)?.output ?? ''), { timeout: 30_000 })
      .toBe('first\n')
    expect(manager.read(info.id)?.output).toBe('')
    writeFileSync(go, '')
    const done = await manager.waitForExit(info.id, 60_000)
    expect(done).toMatchObject({ status: 'exited', exitCode: 7 })
    expect(manager.read(info.id)?.output).toBe('second\n')
    expect(changes).toEqual(['running', 'exited'])
  })
  it('waitForExit returns at the timeout while the job runs', async () => {
    const manager = new BackgroundProcesses({ env })
    const info = manager.start('sleep 100', { cwd: dir })
    const started = Date.now()
    const snapshot = await manager.waitForExit(info.id, 200)
    expect(snapshot?.status).toBe('running')
    // At the timeout, not when the job ends (100 s): this bound leaves a loaded machine a minute.
    expect(Date.now() - started).toBeLessThan(60_000)
    await manager.killAll()
  })
  it('kill stops the whole tree', async () => {
    const pidFile = join(dir, 'pids')
    const manager = new BackgroundProcesses({ env, killGraceMs: 500 })
    const info = manager.start(`echo $$ > ${pidFile}; sleep 100 & echo $! >> ${pidFile}; wait`, { cwd: dir })
    await expect.poll(() => existsSync(pidFile) && pidsIn(pidFile).length, { timeout: 30_000 }).toBe(2)
    const killed = await manager.kill(info.id)
    expect(killed?.status).toBe('killed')
    const pids = pidsIn(pidFile)
    expect(pids.length).toBe(2)
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(false)
  })
  it('kill after the shell exited stops what it left behind', async () => {
    const pidFile = join(dir, 'pids')
    const manager = new BackgroundProcesses({ env, killGraceMs: 500 })
    const info = manager.start(`sleep 100 & echo $! > ${pidFile}`, { cwd: dir })
    const exited = await manager.waitForExit(info.id, 60_000)
    expect(exited?.status).toBe('exited')
    const [orphan] = pidsIn(pidFile)
    expect(isProcessAlive(orphan!)).toBe(true)
    expect((await manager.kill(info.id))?.status).toBe('exited')
    expect(isProcessAlive(orphan!)).toBe(false)
  })
  it('returns undefined for unknown ids', async () => {
    const manager = new BackgroundProcesses({ env })
    expect(manager.read('nope')).toBeUndefined()
    expect(await manager.kill('nope')).toBeUndefined()
  })
})
