/**
 * The prompt editor in a real 80×24 pseudo-terminal against the built CLI (`pnpm build` first):
 * multi-line input, bracketed paste (small pastes whole, large ones as a placeholder sent whole),
 * cursor and word motions, kill keys, history kept per project across runs, `/` and `@` completion
 * (the file attached), `!` shell mode, Ctrl-C (interrupt, clear, quit twice) and Ctrl-D.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from './harness.js'
import { BIN, journals, ptyEnv, startCli } from './pty-harness.js'

const ENTER = '\r'
const LEFT = '\u001b[D'
const UP = '\u001b[A'
const TAB = '\t'
const CTRL = (letter: string) => String.fromCharCode(letter.charCodeAt(0) - 96)
const ALT = (letter: string) => `\u001b${letter}`
const SIZE = { cols: 80, rows: 24 }

const text = (value: string) => JSON.stringify({ blocks: [{ type: 'text', text: value }] })
const bash = (command: string) =>
  JSON.stringify({ blocks: [{ type: 'tool_use', id: 'call-slow', name: 'Bash', input: { command } }] })

function setup(lines: string[]) {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm build' before the pty tests.`)
  const home = tempDir('ze-pty-ed-home-')
  const project = tempDir('ze-pty-ed-proj-')
  const script = join(home, 'script.jsonl')
  writeFileSync(script, lines.join('\n'))
  const env = ptyEnv(home)
  return { home, project, env, args: ['--model', `scripted:${script}`, '--cwd', project] }
}

/** The prompt box shows exactly `value` on its (last drawn) first line. */
const shows = (value: string) => (out: string) =>
  new RegExp(`› ${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*│`).test(out)

async function exited(cli: { exitCode: () => number | undefined }): Promise<number | undefined> {
  const started = Date.now()
  while (cli.exitCode() === undefined && Date.now() - started < 60_000)
    await new Promise((resolve) => setTimeout(resolve, 25))
  return cli.exitCode()
}

describe('the prompt editor in an 80×24 pseudo-terminal', () => {
  it('edits multi-line prompts, keeps pastes whole, completes and recalls across runs', async () => {
    const replies = Array.from({ length: 8 }, (_, index) => text(`reply number ${index + 1}`))
    const { project, env, args } = setup(replies)
    mkdirSync(join(project, 'src'))
    writeFileSync(join(project, 'src', 'alpha.ts'), 'export const ALPHA_MARKER = 1\n')
    const cli = startCli(args, env, SIZE)
    await cli.waitFor((out) => out.includes('Ask anything'), 'the composer')

    // Multi-line: \+Enter, Alt+Enter and Shift+Enter (CSI u) each add a line; Enter sends all.
    // (Each step waits for its echo: keys typed while the chat is still starting arrive in one read.)
    await cli.typeText('first')
    await cli.waitFor(shows('first'), 'the first line')
    await cli.type('\\', ENTER)
    await cli.typeText('second')
    await cli.waitFor((out) => /│\s+second\s*│/.test(out), 'the second line')
    await cli.type('\u001b\r')
    await cli.typeText('third')
    await cli.waitFor((out) => /│\s+third\s*│/.test(out), 'the third line')
    await cli.type('\u001b[13;2u')
    cli.mark()
    await cli.typeText('fourth')
    const box = await cli.waitFor((out) => out.includes('fourth'), 'the fourth line')
    expect(box).toMatch(/› first\s*│\s*\n│\s+second\s*│\s*\n│\s+third\s*│\s*\n│\s+fourth/)
    cli.mark()
    await cli.type(ENTER)
    await cli.waitFor((out) => out.includes('reply number 1'), 'the first reply')
    expect(journals(env.XDG_DATA_HOME)).toContain('first\\nsecond\\nthird\\nfourth')

    // Cursor and word motions, Ctrl-A/E/K/U/W.
    await cli.typeText('helo')
    await cli.type(LEFT, 'l')
    await cli.waitFor(shows('hello'), 'a letter inserted before the cursor')
    await cli.type(CTRL('a'))
    await cli.typeText('say ')
    await cli.waitFor(shows('say hello'), 'Ctrl-A then typing')
    await cli.type(CTRL('e'))
    await cli.typeText(' now')
    await cli.waitFor(shows('say hello now'), 'Ctrl-E then typing')
    await cli.type(ALT('b'), CTRL('k'))
    await cli.waitFor(shows('say hello'), 'Alt-B then Ctrl-K')
    await cli.type(CTRL('w'))
    await cli.waitFor(shows('say'), 'Ctrl-W')
    await cli.type(ALT('b'), ALT('f'), 'ing', CTRL('u'))
    await cli.waitFor((out) => out.includes('Ask anything'), 'Ctrl-U leaving an empty prompt')

    // ↑ recalls the multi-line prompt; Ctrl-C clears it without arming quit.
    cli.mark()
    await cli.type(UP)
    await cli.waitFor((out) => /› first[\s\S]*fourth/.test(out), 'the recalled prompt')
    cli.mark()
    await cli.type(CTRL('c'))
    const cleared = await cli.waitFor((out) => out.includes('Ask anything'), 'the cleared prompt')
    expect(cleared).not.toContain('Press Ctrl-C again')

    // A bracketed paste with line breaks stays in the prompt whole, unsent.
    cli.mark()
    cli.write('\u001b[200~alpha\rbeta\r\ngamma\u001b[201~')
    await cli.waitFor((out) => /› alpha\s*│\s*\n│\s+beta\s*│\s*\n│\s+gamma/.test(out), 'the pasted lines')
    expect(cli.since()).not.toContain('reply number 2')
    await cli.type(ENTER)
    await cli.waitFor((out) => out.includes('reply number 2'), 'the reply to the paste')
    expect(journals(env.XDG_DATA_HOME)).toContain('alpha\\nbeta\\ngamma')

    // A large paste is one placeholder in the prompt and reaches the model whole; 30 lines that end
    // with a line break count as 30.
    const rows = Array.from({ length: 30 }, (_, index) => `row ${index + 1} of the log`)
    cli.mark()
    cli.write(`\u001b[200~${rows.join('\r')}\r\u001b[201~`)
    await cli.waitFor(shows('[Pasted text #1 +30 lines]'), 'the paste placeholder')
    await cli.typeText(' summarize')
    await cli.type(ENTER)
    await cli.waitFor((out) => out.includes('reply number 3'), 'the reply to the large paste')
    // The turn ends after its reply is drawn: Ctrl-C below must clear the prompt, not interrupt it.
    await cli.idle('the end of the turn')
    expect(journals(env.XDG_DATA_HOME)).toContain(`${rows.join('\\n')}\\n summarize`)

    // ↑ recalls the paste as the one placeholder it was typed as; the next ↑ is the prompt before.
    cli.mark()
    await cli.type(UP)
    await cli.waitFor(shows('[Pasted text #1 +30 lines] summarize'), 'the recalled paste')
    expect(cli.since()).not.toContain('row 30 of the log')
    cli.mark()
    await cli.type(UP)
    await cli.waitFor((out) => /› alpha/.test(out), 'the prompt before the paste')
    await cli.type(CTRL('c'))
    await cli.waitFor((out) => out.includes('Ask anything'), 'the cleared prompt')

    // `/` completion lists the shipped prompt commands.
    for (const [typed, command] of [
      ['/ini', '/init'],
      ['/revi', '/review'],
      ['/comm', '/commit'],
    ] as const) {
      cli.mark()
      await cli.typeText(typed)
      await cli.waitFor((out) => out.includes(`❯ ${command}`), `${command} in the completion list`)
      await cli.type(CTRL('u'))
    }

    // `@` completion inserts the path; the file is attached to the prompt.
    cli.mark()
    await cli.typeText('explain @alp')
    await cli.waitFor((out) => out.includes('❯ @src/alpha.ts'), 'the file completion')
    await cli.type(TAB)
    await cli.waitFor(shows('explain @src/alpha.ts'), 'the completed path')
    await cli.type(ENTER)
    await cli.waitFor((out) => out.includes('reply number 4'), 'the reply with the attachment')
    expect(journals(env.XDG_DATA_HOME)).toContain('ALPHA_MARKER')

    // `!` runs a shell line and shows its output.
    cli.mark()
    await cli.typeText('!echo shell-$((40+2))')
    await cli.waitFor((out) => out.includes('shell mode'), 'the shell-mode hint')
    await cli.type(ENTER)
    await cli.waitFor((out) => out.includes('shell-42'), 'the shell output')

    // Ctrl-D on the empty prompt quits.
    cli.mark()
    await cli.type(CTRL('d'))
    await cli.waitFor((out) => out.includes('Resume it with'), 'the exit line')
    expect(await exited(cli)).toBe(0)

    // History is kept per project: a new chat recalls the last prompt.
    const again = startCli(args, env, SIZE)
    await again.waitFor((out) => out.includes('Ask anything'), 'the second composer')
    // Keys typed before the chat reads the terminal are echoed by it instead: wait for an echo first.
    await again.type('x')
    await again.waitFor(shows('x'), 'the chat reading keys')
    await again.type(CTRL('u'))
    again.mark()
    await again.type(UP)
    await again.waitFor((out) => out.includes('echo shell-$((40+2))'), 'the prompt from the last run')
    again.mark()
    await again.type(UP)
    await again.waitFor(shows('explain @src/alpha.ts'), 'the prompt before it')
  }, 120_000)

  it('Ctrl-C interrupts a running turn keeping the queued message, then twice quits', async () => {
    const { project, env, args } = setup([
      bash('echo started; sleep 30; printf late > late.txt'),
      text('after the interrupt'),
    ])
    const cli = startCli(args, env, SIZE)
    await cli.waitFor((out) => out.includes('Ask anything'), 'the composer')
    await cli.typeText('wait a while')
    await cli.waitFor(shows('wait a while'), 'the typed prompt')
    await cli.type(ENTER)
    await cli.waitFor((out) => out.includes('[y] Yes, once'), 'the approval card')
    cli.mark()
    await cli.type('y')
    await cli.waitFor((out) => out.includes('started'), 'the running call')
    await cli.typeText('then check the logs')
    await cli.type(ENTER)
    await cli.waitFor((out) => out.includes('queued: then check the logs'), 'the queued message')
    cli.mark()
    await cli.type(CTRL('c'))
    const stopped = await cli.waitFor((out) => out.includes('Interrupted'), 'the interrupted turn')
    expect(stopped).not.toContain('Press Ctrl-C again')
    await cli.waitFor(
      (out) => out.includes('queued, sent with your next message: then check the logs'),
      'the queued message kept',
    )
    expect(existsSync(join(project, 'late.txt'))).toBe(false)
    cli.mark()
    await cli.type(CTRL('c'))
    await cli.waitFor((out) => out.includes('Press Ctrl-C again to quit'), 'the warning')
    await cli.type(CTRL('c'))
    await cli.waitFor((out) => out.includes('Resume it with'), 'the exit line')
    expect(await exited(cli)).toBe(0)
  })
})
