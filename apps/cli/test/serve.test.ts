import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { parseEnvelope } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import type { CommandIo } from '../src/command.js'
import { runCli } from '../src/router.js'
import { runInProcess, sandbox, until } from './helpers.js'

describe('serve --stdio', () => {
  it('round trip: open line, submit, an approval answered by the client, envelopes out', async () => {
    const box = await sandbox()
    const script = await box.script('write.jsonl', [
      { blocks: [{ type: 'tool_use', name: 'Write', input: { file_path: 'out.txt', content: 'served\n' } }] },
      { blocks: [{ type: 'text', text: 'Wrote out.txt.' }] },
    ])
    const stdin = new PassThrough()
    const stdout = new PassThrough()
    const stderr = new PassThrough()
    let out = ''
    stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8')
    })
    const io: CommandIo = { argv: ['serve', '--stdio'], stdin, stdout, stderr, env: box.env, cwd: box.root }
    const exited = runCli(io)
    const lines = () =>
      out
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    const events = () =>
      lines().flatMap((line) => ('event' in line ? [line.event as Record<string, unknown>] : []))

    stdin.write(`${JSON.stringify({ type: 'open', cwd: box.project, model: `scripted:${script}` })}\n`)
    stdin.write('{"type":"sumbit","text":"x"}\n')
    stdin.write('{"type":"setMode","mode":"sideways"}\n')
    stdin.write('not json\n')
    stdin.write(`${JSON.stringify({ type: 'submit', text: 'write out.txt' })}\n`)
    await until(() => events().some((event) => event.type === 'approvalRequested'))
    const request = events().find((event) => event.type === 'approvalRequested')?.request as { id: string }
    stdin.write(
      `${JSON.stringify({ type: 'resolveApproval', approvalId: request.id, decision: { type: 'allowOnce' } })}\n`,
    )
    await until(() => events().some((event) => event.type === 'turnFinished'))
    stdin.end()
    expect(await exited).toBe(0)

    expect(await readFile(join(box.project, 'out.txt'), 'utf8')).toBe('served\n')
    const errors = lines().flatMap((line) =>
      'error' in line ? [line.error as { line: number; path: string; message: string }] : [],
    )
    expect(errors).toHaveLength(3)
    expect(errors[0]).toMatchObject({ line: 2, message: expect.stringContaining('sumbit') })
    expect(errors[1]).toMatchObject({ line: 3, path: 'mode' })
    expect(errors[2]).toMatchObject({ line: 4, message: expect.stringContaining('JSON') })
    const envelopes = lines().filter((line) => 'event' in line)
    for (const envelope of envelopes) expect(parseEnvelope(envelope).ok, JSON.stringify(envelope)).toBe(true)
    expect(envelopes.map((envelope) => envelope.seq)).toEqual(envelopes.map((_, index) => index))
    expect(events()[0]).toMatchObject({ type: 'sessionOpened', projectRoot: box.project })
    expect(events().find((event) => event.type === 'turnFinished')).toMatchObject({
      outcome: { type: 'done' },
    })
  })

  it('without an open line the flags choose; a bad resume id is an error line and exit 1', async () => {
    const box = await sandbox()
    const script = await box.script('hi.jsonl', [{ blocks: [{ type: 'text', text: 'hi' }] }])
    const ok = await runInProcess(
      ['serve', '--stdio', '--cwd', box.project, '--model', `scripted:${script}`],
      {
        cwd: box.root,
        env: box.env,
        stdin: '{"type":"submit","text":"hello"}\n',
      },
    )
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.stdout).toContain('"turnFinished"')
    const bad = await runInProcess(
      ['serve', '--stdio', '--resume', 'nope', '--model', `scripted:${script}`],
      {
        cwd: box.project,
        env: box.env,
        stdin: '{"type":"submit","text":"hello"}\n',
      },
    )
    expect(bad.code).toBe(1)
    expect(bad.stdout).toContain('"error"')
    expect((await runInProcess(['serve'], { cwd: box.project, env: box.env })).code).toBe(2)
  })

  it('refuses a line over [input] max_line_bytes with an error line and goes on with the next', async () => {
    const box = await sandbox()
    await mkdir(join(box.project, '.z-engine'), { recursive: true })
    await writeFile(join(box.project, '.z-engine', 'settings.toml'), '[input]\nmax_line_bytes = 2048\n')
    const script = await box.script('hi.jsonl', [{ blocks: [{ type: 'text', text: 'hi' }] }])
    const huge = JSON.stringify({ type: 'submit', text: 'x'.repeat(10_000) })
    const run = await runInProcess(['serve', '--stdio', '--model', `scripted:${script}`], {
      cwd: box.project,
      env: box.env,
      stdin: `${huge}\n{"type":"submit","text":"hello"}\n`,
    })
    expect(run.code, run.stderr).toBe(0)
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines[0]).toMatchObject({ error: { line: 1 } })
    expect(String((lines[0]!.error as { message: string }).message)).toMatch(
      /10\d{3} bytes, over the input limit of 2048 bytes \(\[input\] max_line_bytes/,
    )
    expect(run.stdout).toContain('"turnFinished"')
  })
})
