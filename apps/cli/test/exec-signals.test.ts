import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BIN, HAVE_DIST, sandbox, spawnCli, until } from './helpers.js'

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  // A zombie waiting for its (dead) parent's reaper counts as gone.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return process.platform !== 'linux'
  }
}

describe.runIf(HAVE_DIST)('exec in a child process (built dist)', () => {
  it('SIGINT interrupts the running turn and exits 130 after a final line', async () => {
    const box = await sandbox()
    const script = await box.script('slow.jsonl', [
      { blocks: [{ type: 'tool_use', name: 'Bash', input: { command: 'sleep 300' } }] },
      { blocks: [{ type: 'text', text: 'never reached' }] },
    ])
    const child = spawnCli(
      [
        'exec',
        '--model',
        `scripted:${script}`,
        '--permission-mode',
        'bypass',
        '--output-format',
        'stream-json',
        'wait',
      ],
      { cwd: box.project, env: box.env, stdin: '' },
    )
    await until(() => child.stdout().includes('"tool_call"'))
    const sent = Date.now()
    child.kill('SIGINT')
    expect(await child.exited).toBe(130)
    // Not after the command: it sleeps 300 s, and this bound leaves a loaded machine minutes to spare.
    expect(Date.now() - sent).toBeLessThan(60_000)
    const lines = child
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.find((line) => line.type === 'final')).toMatchObject({ outcome: 'interrupted' })
    expect(lines.at(-1)).toMatchObject({ type: 'run_end', exit_code: 130 })
  }, 120_000)

  it('SIGKILL of the CLI mid-command leaves no process of its tree', async () => {
    const box = await sandbox()
    // The command records its shell's pid (the group leader) and a backgrounded grandchild's.
    const command = 'echo $$ > pids.txt; sleep 300 & echo $! >> pids.txt; wait'
    const script = await box.script('hang.jsonl', [
      { blocks: [{ type: 'tool_use', name: 'Bash', input: { command } }] },
      { blocks: [{ type: 'text', text: 'never reached' }] },
    ])
    const child = spawnCli(['exec', '--model', `scripted:${script}`, '--permission-mode', 'bypass', 'go'], {
      cwd: box.project,
      env: box.env,
      stdin: '',
    })
    const pidsFile = join(box.project, 'pids.txt')
    await until(
      () => existsSync(pidsFile) && readFileSync(pidsFile, 'utf8').trim().split('\n').length === 2,
      60_000,
    )
    const pids = readFileSync(pidsFile, 'utf8').trim().split('\n').map(Number)
    expect(pids.every(alive)).toBe(true)
    child.kill('SIGKILL')
    await child.exited
    await until(() => !pids.some(alive), 60_000)
    expect(pids.filter(alive)).toEqual([])
  })

  it('a full disk ends the run with a clear error, a final and a run_end line, and no torn journal', async (context) => {
    // A real full disk: a 256 KiB tmpfs as the data dir (needs root with CAP_SYS_ADMIN; else skipped).
    const disk = mkdtempSync(join(tmpdir(), 'z-full-'))
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', disk], { stdio: 'ignore' })
    } catch {
      rmSync(disk, { recursive: true, force: true })
      context.skip()
      return
    }
    try {
      // Leave about 24 KiB free: enough to open the session, not for the command's result.
      execFileSync('sh', ['-c', `head -c ${232 * 1024} /dev/zero > ${disk}/filler || true`])
      const box = await sandbox()
      const script = await box.script('flood.jsonl', [
        {
          blocks: [
            { type: 'tool_use', name: 'Bash', input: { command: 'head -c 400000 /dev/zero | tr "\\0" x' } },
          ],
        },
        { blocks: [{ type: 'text', text: 'never reached' }] },
      ])
      const run = spawnCli(
        [
          'exec',
          '--model',
          `scripted:${script}`,
          '--permission-mode',
          'bypass',
          '--output-format',
          'stream-json',
          'go',
        ],
        { cwd: box.project, env: { ...box.env, XDG_DATA_HOME: disk }, stdin: '' },
      )
      expect(await run.exited).not.toBe(0)
      const lines = run
        .stdout()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(lines.find((line) => line.type === 'final')).toBeDefined()
      expect(lines.at(-1)).toMatchObject({ type: 'run_end' })
      expect(run.stdout()).toMatch(/disk is full|no space left/i)
      for (const session of readdirSync(join(disk, 'z-engine', 'sessions'))) {
        const log = readFileSync(join(disk, 'z-engine', 'sessions', session, 'log.jsonl'), 'utf8')
        expect(log.endsWith('\n')).toBe(true)
        for (const line of log.trimEnd().split('\n')) expect(() => JSON.parse(line)).not.toThrow()
      }
    } finally {
      execFileSync('umount', [disk])
      rmSync(disk, { recursive: true, force: true })
    }
  })

  it('--version and a text exec from the built binary', async () => {
    const box = await sandbox()
    const script = await box.script('hi.jsonl', [{ blocks: [{ type: 'text', text: 'hi there' }] }])
    const version = spawnCli(['--version'], { cwd: box.project, env: box.env, stdin: '' })
    expect(await version.exited).toBe(0)
    expect(version.stdout()).toMatch(/^\d+\.\d+\.\d+\n$/)
    const run = spawnCli(['exec', '--model', `scripted:${script}`, 'hello'], {
      cwd: box.project,
      env: box.env,
      stdin: '',
    })
    expect(await run.exited).toBe(0)
    expect(run.stdout()).toBe('hi there\n')
  })

  it('a shell pipe is appended to the prompt; an open stdin a parent never closes is not waited for', async () => {
    const box = await sandbox()
    const script = await box.script('hi.jsonl', [{ blocks: [{ type: 'text', text: 'hi' }] }])
    const bin = JSON.stringify(process.execPath)
    const cli = JSON.stringify(BIN)
    const output = execFileSync(
      'sh',
      [
        '-c',
        `printf 'ERROR disk full\\n' | ${bin} ${cli} exec --output-format json --model ${JSON.stringify(`scripted:${script}`)} 'summarize'`,
      ],
      { cwd: box.project, env: box.env, encoding: 'utf8' },
    )
    const sessionId = (JSON.parse(output) as { session_id: string }).session_id
    const log = readFileSync(join(box.root, 'data', 'z-engine', 'sessions', sessionId, 'log.jsonl'), 'utf8')
    expect(log).toContain('summarize\\n\\nERROR disk full')
    // spawnCli without `stdin` leaves the pipe (a socket) open for the whole run.
    const open = spawnCli(['exec', '--model', `scripted:${script}`, 'hello'], {
      cwd: box.project,
      env: box.env,
    })
    expect(await open.exited).toBe(0)
    expect(open.stdout()).toBe('hi\n')
  })
})
