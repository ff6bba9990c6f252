import { describe, expect, it } from 'vitest'
import { HAVE_DIST, sandbox, spawnCli, until } from './helpers.js'

describe.runIf(HAVE_DIST)('exec in a child process (built dist)', () => {
  it('SIGINT interrupts the running turn and exits 130 after a final line', async () => {
    const box = await sandbox()
    const script = await box.script('slow.jsonl', [
      { blocks: [{ type: 'tool_use', name: 'Bash', input: { command: 'sleep 30' } }] },
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
    expect(Date.now() - sent).toBeLessThan(10_000)
    const lines = child
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.find((line) => line.type === 'final')).toMatchObject({ outcome: 'interrupted' })
    expect(lines.at(-1)).toMatchObject({ type: 'run_end', exit_code: 130 })
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
})
