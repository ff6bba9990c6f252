/**
 * Every applied edit stays visible (built CLI in a pseudo-terminal, `pnpm build` first): an edit
 * approved with "always", the next one allowed by that rule and one auto-accepted in acceptEdits mode
 * each leave a `+added -removed` line under their card, and Ctrl-O prints their diffs, newest first.
 */
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from './harness.js'
import { BIN, ptyEnv, startCli } from './pty-harness.js'

const ENTER = '\r'
const CTRL_O = '\u000f'
const SHIFT_TAB = '\u001b[Z'

function edit(id: string, oldString: string, newString: string) {
  return JSON.stringify({
    blocks: [
      {
        type: 'tool_use',
        id,
        name: 'Edit',
        input: { file_path: 'math.ts', old_string: oldString, new_string: newString },
      },
    ],
  })
}

describe('applied edits in the transcript', () => {
  it('keeps the change of approved, always-allowed and auto-accepted edits, expandable with Ctrl-O', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm build' before the pty tests.`)
    const home = tempDir('ze-pty-edits-home-')
    const project = tempDir('ze-pty-edits-proj-')
    writeFileSync(
      join(project, 'math.ts'),
      'export const one = 1\nexport const two = 2\nexport const three = 3\n',
    )
    const script = join(home, 'script.jsonl')
    writeFileSync(
      script,
      [
        JSON.stringify({
          blocks: [{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: 'math.ts' } }],
        }),
        edit('e1', 'export const one = 1', 'export const one = 100'),
        edit('e2', 'export const two = 2', 'export const two = 200\nexport const twoAgain = 2'),
        JSON.stringify({ blocks: [{ type: 'text', text: 'First done.' }] }),
        edit('e3', 'export const three = 3', 'export const three = 300'),
        JSON.stringify({ blocks: [{ type: 'text', text: 'Second done.' }] }),
      ].join('\n'),
    )
    const cli = startCli(['--model', `scripted:${script}`, '--cwd', project], ptyEnv(home))
    await cli.waitFor((out) => out.includes('Ask anything'), 'the composer')
    cli.mark()
    await cli.typeText('change one and two')
    await cli.type(ENTER)
    await cli.waitFor((out) => out.includes('[n] No'), 'the approval card of the first edit')
    // "Always in this chat": the second edit is allowed by the rule it grants, without a card.
    await cli.type('a')
    const first = await cli.waitFor((out) => out.includes('First done.'), 'the first answer')
    expect(first).toContain('+1 -1 (ctrl+o to show the change)')
    expect(first).toContain('+2 -1 (ctrl+o to show the change)')

    cli.mark()
    await cli.type(SHIFT_TAB)
    await cli.waitFor((out) => out.includes('accept edits'), 'auto-accept edits mode')
    await cli.typeText('change three')
    await cli.type(ENTER)
    const second = await cli.waitFor((out) => out.includes('Second done.'), 'the second answer')
    expect(second).not.toContain('[n] No')
    expect(second).toContain('+1 -1 (ctrl+o to show the change)')

    // Ctrl-O: the newest change first, then the one before, with its hunks and no file headers.
    cli.mark()
    await cli.type(CTRL_O)
    const third = await cli.waitFor((out) => out.includes('+export const three = 300'), 'the third diff')
    expect(third).toContain('change to math.ts')
    expect(third).toContain('-export const three = 3')
    expect(third).not.toMatch(/\+\+\+ |--- |Index:/)
    cli.mark()
    await cli.type(CTRL_O)
    const secondDiff = await cli.waitFor(
      (out) => out.includes('+export const twoAgain = 2'),
      'the second diff',
    )
    expect(secondDiff).toContain('-export const two = 2')
    cli.mark()
    await cli.type(CTRL_O)
    await cli.waitFor((out) => out.includes('+export const one = 100'), 'the first diff')
  })
})
