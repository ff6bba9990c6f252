/**
 * Hunk-level rewind in the chat (built CLI in a pseudo-terminal, `pnpm build` first): after the
 * agent edited a file and the user then edited it too, a rewind reverts only the agent's hunks and
 * keeps the user's; a hunk both changed is left, and the chat asks whether to keep the file or
 * revert it whole. The conversation rewind puts the prompt back as typed (`@math.ts`), not the
 * attached file's text, and the transcript never shows that text.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from './harness.js'
import { BIN, ptyEnv, startCli } from './pty-harness.js'

const ENTER = '\r'
const ESC = '\u001b'
const DOWN = '\u001b[B'

function call(id: string, name: string, input: Record<string, unknown>) {
  return JSON.stringify({ blocks: [{ type: 'tool_use', id, name, input }] })
}

describe('hunk-level rewind in the chat', () => {
  it("reverts the agent's hunks, keeps the user's, and asks about the hunk both changed", async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm build' before the pty tests.`)
    const home = tempDir('ze-pty-hunks-home-')
    const project = tempDir('ze-pty-hunks-proj-')
    const original = `${Array.from({ length: 20 }, (_, index) => `const v${index + 1} = ${index + 1}`).join('\n')}\n`
    const file = join(project, 'math.ts')
    writeFileSync(file, original)
    const script = join(home, 'script.jsonl')
    writeFileSync(
      script,
      [
        call('r1', 'Read', { file_path: 'math.ts' }),
        call('e1', 'Edit', {
          file_path: 'math.ts',
          old_string: 'const v2 = 2\n',
          new_string: 'const v2 = 200\n',
        }),
        call('e2', 'Edit', {
          file_path: 'math.ts',
          old_string: 'const v5 = 5\n',
          new_string: 'const v5 = 500\n',
        }),
        JSON.stringify({ blocks: [{ type: 'text', text: 'Edited.' }] }),
      ].join('\n'),
    )
    const cli = startCli(
      ['--model', `scripted:${script}`, '--cwd', project, '--permission-mode', 'bypass'],
      ptyEnv(home),
    )
    await cli.waitFor((out) => out.includes('Ask anything'), 'the composer')
    cli.mark()
    await cli.typeText('tune @math.ts now')
    await cli.type(ENTER)
    const answered = await cli.waitFor((out) => out.includes('Edited.'), 'the answer')
    // The mention is shown as typed; the attached file's text is for the model only.
    expect(answered).toContain('tune @math.ts now')
    expect(answered).not.toContain('<file path')
    expect(answered).not.toContain('const v17 = 17')
    await cli.idle('the turn to end')

    // The user edits the agent's line 5 and their own line 15.
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('const v5 = 500', 'const v5 = 555')
        .replace('const v15 = 15', 'const v15 = 1515'),
    )
    cli.mark()
    await cli.type(ESC, ESC)
    await cli.waitFor((out) => out.includes('Enter to choose'), 'the rewind picker')
    cli.mark()
    await cli.type(ENTER)
    await cli.waitFor((out) => out.includes('Enter to rewind'), 'the scope picker')
    cli.mark()
    await cli.type(ENTER)
    const asked = await cli.waitFor((out) => out.includes('Esc to keep'), 'the keep-or-revert question')
    const flat = asked.replace(/\s+/g, ' ')
    expect(flat).toContain(
      "Reverted the agent's hunks in 1 file edited since, keeping the later edits: math.ts",
    )
    expect(flat).toContain('Rewind left 1 hunk of math.ts')
    expect(flat).toContain('Revert math.ts whole')
    // Line 2 is reverted, the user's line 15 kept, the overlapping line 5 left as the user has it.
    const merged = readFileSync(file, 'utf8')
    expect(merged).toContain('const v2 = 2\n')
    expect(merged).toContain('const v15 = 1515\n')
    expect(merged).toContain('const v5 = 555\n')

    cli.mark()
    await cli.type(DOWN, ENTER)
    const whole = await cli.waitFor(
      (out) => out.includes('Restored 1 file: math.ts'),
      'the whole-file revert',
    )
    expect(readFileSync(file, 'utf8')).toBe(original)
    // The conversation rewind put the prompt back as it was typed.
    expect(whole).toContain('tune @math.ts now')
    expect(whole).not.toContain('<file path')
  })
})
