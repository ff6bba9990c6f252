/**
 * A resumed chat shows what happened (built CLI in a pseudo-terminal, `pnpm build` first): a call a
 * deny rule refused replays as denied with the rule's reason (not "error"), an applied edit keeps
 * its `+N -M` line and Ctrl-O diff, and the rewind picker marks the message whose turn changed files.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from './harness.js'
import { BIN, ptyEnv, quitChat, startCli } from './pty-harness.js'

const ENTER = '\r'
const ESC = '\u001b'
const CTRL_O = '\u000f'
const block = (value: Record<string, unknown>) => JSON.stringify({ blocks: [value] })

describe('a resumed chat shows what happened (issue 39)', () => {
  it('replays a rule denial as denied with its reason, an edit with its change, and the rewind marks', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm build' before the pty tests.`)
    const home = tempDir('ze-pty-resume-shows-home-')
    const project = tempDir('ze-pty-resume-shows-proj-')
    writeFileSync(join(project, 'math.ts'), 'export const one = 1\nexport const two = 2\n')
    const env = ptyEnv(home)
    mkdirSync(join(env.XDG_CONFIG_HOME, 'z-engine'), { recursive: true })
    writeFileSync(
      join(env.XDG_CONFIG_HOME, 'z-engine', 'settings.toml'),
      '[permissions]\ndeny = ["Bash(rm:*)"]\n',
    )
    const script = join(home, 'script.jsonl')
    writeFileSync(
      script,
      [
        block({ type: 'text', text: 'Just looking.' }),
        block({ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'rm -rf build' } }),
        block({ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: 'math.ts' } }),
        block({
          type: 'tool_use',
          id: 'e1',
          name: 'Edit',
          input: {
            file_path: 'math.ts',
            old_string: 'export const one = 1',
            new_string: 'export const one = 100',
          },
        }),
        block({ type: 'text', text: 'Changed one.' }),
      ].join('\n'),
    )
    const args = ['--model', `scripted:${script}`, '--cwd', project, '--permission-mode', 'acceptEdits']
    const cli = startCli(args, env)
    await cli.waitFor((out) => out.includes('Ask anything'), 'the composer')
    await cli.typeText('just look')
    await cli.type(ENTER)
    await cli.waitFor((out) => out.includes('Just looking.'), 'the first answer')
    await cli.idle('the first turn to end')
    cli.mark()
    await cli.typeText('change one')
    await cli.type(ENTER)
    const live = await cli.waitFor((out) => out.includes('Changed one.'), 'the second answer')
    expect(live).toContain('+1 -1 (ctrl+o to show the change)')
    await cli.idle('the second turn to end')
    await quitChat(cli, '\u0015', '\u0004')

    const resumed = startCli([...args, '--continue'], env)
    const shown = await resumed.waitFor((out) => out.includes('Resumed'), 'the resumed transcript')
    const flat = shown.replace(/\s+/g, ' ')
    expect(flat).toMatch(/Bash rm -rf build denied/)
    expect(flat).not.toMatch(/Bash rm -rf build error/)
    expect(flat).toContain('⎿ a deny rule forbids')
    expect(flat).toContain('+1 -1 (ctrl+o to show the change)')

    resumed.mark()
    await resumed.type(CTRL_O)
    const diff = await resumed.waitFor((out) => out.includes('+export const one = 100'), 'the replayed diff')
    expect(diff).toContain('change to math.ts')
    expect(diff).toContain('-export const one = 1')

    resumed.mark()
    await resumed.typeText('/rewind')
    await resumed.type(ENTER)
    const picker = await resumed.waitFor((out) => out.includes('Enter to choose'), 'the rewind picker')
    expect(picker).toMatch(/change one\s+changed files/)
    expect(picker).not.toMatch(/just look\s+changed files/)
    resumed.mark()
    await resumed.type(ESC)
    await resumed.waitFor((out) => out.includes('Ask anything'), 'the composer again')
    await quitChat(resumed, '\u0015', '\u0004')
  })
})
