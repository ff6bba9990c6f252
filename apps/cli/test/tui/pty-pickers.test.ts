/**
 * The chat's pickers in an 80×24 pseudo-terminal against the built CLI (`pnpm build` first): Esc Esc
 * opens the rewind picker, a message and a scope are chosen, the agent's change is undone while the
 * user's own file stays; `z-engine --resume` without an id opens the session picker.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from './harness.js'
import { BIN, ptyEnv, quitChat, startCli } from './pty-harness.js'

const ENTER = '\r'
const ESC = '\u001b'
const SIZE = { cols: 80, rows: 24 }
const text = (value: string) => JSON.stringify({ blocks: [{ type: 'text', text: value }] })
const write = (path: string, content: string, id: string) =>
  JSON.stringify({
    blocks: [{ type: 'tool_use', id, name: 'Write', input: { file_path: path, content } }],
  })

const quit = (cli: ReturnType<typeof startCli>) => quitChat(cli, '\u0015', '\u0004')

describe('pickers in an 80×24 pseudo-terminal', () => {
  it('rewinds through Esc Esc, then resumes the session from the --resume picker', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm build' before the pty tests.`)
    const home = tempDir('ze-pty-pick-home-')
    const project = tempDir('ze-pty-pick-proj-')
    const script = join(home, 'script.jsonl')
    writeFileSync(
      script,
      [
        write('a.txt', 'one\n', 'w1'),
        text('Wrote one.'),
        write('a.txt', 'two\n', 'w2'),
        text('Wrote two.'),
      ].join('\n'),
    )
    const env = ptyEnv(home)
    const args = ['--model', `scripted:${script}`, '--cwd', project, '--permission-mode', 'acceptEdits']
    const cli = startCli(args, env, SIZE)
    await cli.waitFor((out) => out.includes('Ask anything'), 'the composer')
    await cli.typeText('first change')
    await cli.type(ENTER)
    await cli.waitFor((out) => out.includes('Wrote one.'), 'the first answer')
    await cli.idle('the first turn to end')
    cli.mark()
    await cli.typeText('second change')
    await cli.type(ENTER)
    await cli.waitFor((out) => out.includes('Wrote two.'), 'the second answer')
    await cli.idle('the second turn to end')
    writeFileSync(join(project, 'mine.txt'), 'by hand\n')

    cli.mark()
    await cli.type(ESC, ESC)
    const picker = await cli.waitFor((out) => out.includes('Enter to choose'), 'the rewind picker')
    expect(picker).toMatch(/❯ second change/)
    expect(picker).toContain('first change')
    cli.mark()
    await cli.type(ENTER)
    await cli.waitFor((out) => out.includes('Enter to rewind'), 'the scope picker')
    cli.mark()
    await cli.type(ENTER)
    const rewound = await cli.waitFor((out) => out.includes('Restored 1 file'), 'the rewind')
    expect(rewound.replace(/\s+/g, ' ')).toContain(
      'Rewound to before “second change” (code and conversation)',
    )
    expect(rewound.replace(/\s+/g, ' ')).toContain('mine.txt')
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe('one\n')
    expect(readFileSync(join(project, 'mine.txt'), 'utf8')).toBe('by hand\n')
    await quit(cli)

    // --resume without an id, in a terminal: the picker, titled by the first prompt.
    const again = startCli([...args.slice(0, 4), '--resume'], env, SIZE)
    const sessions = await again.waitFor((out) => out.includes('Resume a session'), 'the session picker')
    expect(sessions).toMatch(/❯ first change\s+just now · [0-9a-f]{8}/)
    again.mark()
    await again.type(ENTER)
    // Under a loaded CI machine an Enter typed the instant the picker is drawn can arrive before
    // the picker reads keys; with nothing drawn since, it was lost, so it is typed once more.
    const opened = (out: string) => out.includes('Ask anything')
    let resumed = await again.waitFor(opened, 'the resumed chat', 5_000).catch(() => undefined)
    if (resumed === undefined && again.since().trim() === '') await again.type(ENTER)
    resumed ??= await again.waitFor(opened, 'the resumed chat', 30_000)
    expect(resumed).toContain('Wrote one.')
    expect(resumed).not.toContain('Wrote two.')
    await quit(again)
  })
})
