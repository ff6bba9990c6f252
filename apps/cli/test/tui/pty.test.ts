/**
 * The interactive chat in a real pseudo-terminal, against the built CLI (`pnpm build` first) with a
 * scripted model: type a prompt and watch it stream, approve a Bash call, deny one with feedback,
 * interrupt a running one with Esc, quit with Ctrl-C twice, then resume and see the transcript.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from './harness.js'
import { BIN, filesUnder, ptyEnv, startCli } from './pty-harness.js'

const ENTER = '\r'
const ESC = '\u001b'
const CTRL_C = '\u0003'

describe('z-engine in a pseudo-terminal', () => {
  it('streams, approves, denies with feedback, interrupts, quits and resumes', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm build' before the pty test.`)
    const home = tempDir('ze-pty-home-')
    const project = tempDir('ze-pty-proj-')
    mkdirSync(join(project, 'build'))
    const script = join(home, 'script.jsonl')
    const bash = (command: string, id: string) =>
      JSON.stringify({ blocks: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] })
    const text = (value: string) => JSON.stringify({ blocks: [{ type: 'text', text: value }] })
    writeFileSync(
      script,
      [
        text('Hello from the **scripted** model.\n\n- first point\n- second point'),
        bash('for i in 1 2 3; do echo tick$i; sleep 0.4; done; printf ok > approved.txt', 'call-approve'),
        text('Approved and ran.'),
        bash('rm -rf build', 'call-deny'),
        text('Understood, I will not delete it.'),
        bash('sleep 30; printf late > late.txt', 'call-slow'),
      ].join('\n'),
    )
    const env = ptyEnv(home)
    const cli = startCli(['--model', `scripted:${script}`, '--cwd', project], env)
    await cli.waitFor((out) => out.includes('Ask anything'), 'the composer')

    // 1. A prompt, and its answer rendered as markdown.
    cli.mark()
    await cli.typeText('say hello')
    await cli.type(ENTER)
    const answer = await cli.waitFor((out) => out.includes('• second point'), 'the streamed answer')
    expect(answer).toContain('› say hello')
    expect(answer).toContain('Hello from the scripted model.')
    await cli.idle('the first turn to finish')

    // 2. Approve a Bash call; its output streams into the card while it runs.
    cli.mark()
    await cli.typeText('run the ticker')
    await cli.type(ENTER)
    await cli.waitFor((out) => out.includes('[y] Yes, once'), 'the approval card')
    expect(cli.since()).toContain('approved.txt')
    cli.mark()
    await cli.type('y')
    const live = await cli.waitFor((out) => out.includes('tick1'), 'live output')
    expect(live).not.toContain('Approved and ran.')
    await cli.waitFor((out) => out.includes('Approved and ran.'), 'the answer after the approved call')
    expect(existsSync(join(project, 'approved.txt'))).toBe(true)
    await cli.idle('the second turn to finish')

    // 3. Deny a Bash call with feedback.
    cli.mark()
    await cli.typeText('clean the build')
    await cli.type(ENTER)
    await cli.waitFor((out) => out.includes('rm -rf build') && out.includes('[n] No'), 'the second card')
    await cli.type('n')
    await cli.waitFor((out) => out.includes('Tell the agent what to do instead'), 'the feedback prompt')
    await cli.typeText('keep the build folder')
    cli.mark()
    await cli.type(ENTER)
    const denied = await cli.waitFor((out) => out.includes('Understood, I will not delete it.'), 'the answer')
    expect(denied).toContain('denied')
    expect(existsSync(join(project, 'build'))).toBe(true)
    await cli.idle('the third turn to finish')

    // 4. Approve a slow call, then interrupt it with Esc.
    cli.mark()
    await cli.typeText('wait a while')
    await cli.type(ENTER)
    await cli.waitFor((out) => out.includes('sleep 30') && out.includes('[y] Yes, once'), 'the slow card')
    await cli.type('y')
    await cli.waitFor((out) => out.includes('Esc to interrupt'), 'the running call')
    cli.mark()
    await cli.type(ESC)
    await cli.waitFor((out) => out.includes('Interrupted'), 'the interrupted turn')
    expect(existsSync(join(project, 'late.txt'))).toBe(false)

    // 5. Ctrl-C once warns, twice quits; the session id is printed for --resume.
    cli.mark()
    await cli.type(CTRL_C)
    await cli.waitFor((out) => out.includes('Press Ctrl-C again to quit'), 'the Ctrl-C warning')
    await cli.type(CTRL_C)
    const goodbye = await cli.waitFor(
      (out) => /Resume it with: z-engine --resume \S+/.test(out),
      'the exit line',
    )
    const sessionId = /--resume (\S+)/.exec(goodbye.replace(/\s+/g, ' '))?.[1]
    expect(sessionId).toBeTruthy()
    const started = Date.now()
    while (cli.exitCode() === undefined && Date.now() - started < 60_000)
      await new Promise((resolve) => setTimeout(resolve, 25))
    expect(cli.exitCode()).toBe(0)

    // The denial's feedback reached the journal (and with it the model's next request).
    const logs = filesUnder(env.XDG_DATA_HOME).filter((path) => path.endsWith('.jsonl'))
    expect(logs.some((path) => readFileSync(path, 'utf8').includes('keep the build folder'))).toBe(true)

    // 6. Resume: the stored transcript is shown before anything new.
    const resumed = startCli(
      ['--model', `scripted:${script}`, '--cwd', project, '--resume', sessionId as string],
      env,
    )
    // The early prompt box comes first; the transcript with the real composer.
    const replay = await resumed.waitFor(
      (out) => out.includes('Ask anything') && out.includes('Resumed'),
      'the resumed composer',
    )
    expect(replay).toContain('› say hello')
    expect(replay).toContain('Hello from the scripted model.')
    expect(replay).toContain('Understood, I will not delete it.')
    expect(replay).toContain('Resumed')

    // 7. SIGTERM ends the chat like /exit: the session is flushed and the exit code is 0.
    resumed.mark()
    resumed.kill('SIGTERM')
    await resumed.waitFor(
      (out) => out.includes(`Resume it with: z-engine --resume ${sessionId}`),
      'the exit line',
    )
    const stopped = Date.now()
    while (resumed.exitCode() === undefined && Date.now() - stopped < 60_000)
      await new Promise((resolve) => setTimeout(resolve, 25))
    expect(resumed.exitCode()).toBe(0)
  })
})
