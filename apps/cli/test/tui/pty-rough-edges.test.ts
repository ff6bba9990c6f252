/**
 * Issue 39's small chat items in a real pseudo-terminal against the built CLI (`pnpm build` first),
 * in plan mode: an `@file` mention shows one "Read <path> (N lines)" line (not the file); a call
 * refused by plan mode says why and how to leave it; the approved plan stays in the transcript;
 * the `/plugin install` consent and `/mcp__…` completion are covered in chat-rough-edges.test.ts.
 */
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from './harness.js'
import { BIN, journals, ptyEnv, quitChat, startCli } from './pty-harness.js'

const ENTER = '\r'
const CTRL_D = '\u0004'

describe('the small chat items in a pseudo-terminal', () => {
  it('shows an @file as one line, says why plan mode refused a call, and keeps the approved plan', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm build' before the pty tests.`)
    const home = tempDir('ze-pty-edges-home-')
    const project = tempDir('ze-pty-edges-proj-')
    writeFileSync(
      join(project, 'math.ts'),
      'export const one = 1\nexport const two = 2\nexport const three = 3\n',
    )
    const plan = '1. Rename one to uno\n2. Run the tests'
    const script = join(home, 'script.jsonl')
    writeFileSync(
      script,
      [
        JSON.stringify({
          blocks: [
            {
              type: 'tool_use',
              id: 'w1',
              name: 'Write',
              input: { file_path: 'math.ts', content: 'export const uno = 1\n' },
            },
          ],
        }),
        JSON.stringify({ blocks: [{ type: 'text', text: 'Refused; proposing a plan.' }] }),
        JSON.stringify({
          blocks: [{ type: 'tool_use', id: 'p1', name: 'ExitPlanMode', input: { plan } }],
        }),
        JSON.stringify({ blocks: [{ type: 'text', text: 'Carrying out step one.' }] }),
      ].join('\n'),
    )
    const env = ptyEnv(home)
    const cli = startCli(
      ['--model', `scripted:${script}`, '--permission-mode', 'plan', '--cwd', project],
      env,
    )
    await cli.waitFor((out) => out.includes('Ask anything'), 'the composer')
    cli.mark()
    await cli.typeText('rename in @math.ts please')
    await cli.type(ENTER)
    const first = await cli.waitFor((out) => out.includes('Refused; proposing a plan.'), 'the first answer')
    expect(first).toContain('⎿ Read math.ts (3 lines)')
    expect(first).not.toContain('export const two')
    expect(first).toMatch(/⎿ plan mode is read-only/)
    expect(first.replace(/\s+/g, ' ')).toContain('Shift+Tab leaves plan mode')
    // The model got the whole file.
    expect(journals(join(home, 'data'))).toContain('export const two = 2')

    cli.mark()
    await cli.typeText('plan it')
    await cli.type(ENTER)
    await cli.waitFor((out) => out.includes('Run the tests'), 'the plan panel')
    await cli.type('a')
    const second = await cli.waitFor((out) => out.includes('Carrying out step one.'), 'the second answer')
    expect(second).toContain('Approved plan (edits auto-accepted)')
    expect(second).toContain('Rename one to uno')
    expect(journals(join(home, 'data'))).toContain('## Approved Plan:')
    await quitChat(cli, CTRL_D)
  })
})
