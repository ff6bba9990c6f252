/**
 * The approval card in an 80×24 pseudo-terminal against the built CLI (`pnpm build` first): the
 * change comes first under a relative path (no repeated absolute-path headers), a long change is cut
 * in the middle so its end (the added lines) stays visible and the card fits, and Ctrl-O prints the
 * whole change.
 */
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from './harness.js'
import { BIN, ptyEnv, startCli } from './pty-harness.js'

const ENTER = '\r'
const SIZE = { cols: 80, rows: 24 }

describe('the approval card in an 80×24 pseudo-terminal', () => {
  it('shows the change first with a relative path, fits, and expands with Ctrl-O', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm build' before the pty tests.`)
    const home = tempDir('ze-pty-card-home-')
    const project = tempDir('ze-pty-card-proj-')
    writeFileSync(
      join(project, 'a.txt'),
      `${Array.from({ length: 40 }, (_, index) => `old ${index + 1}`).join('\n')}\n`,
    )
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
              input: { file_path: 'a.txt', content: 'NEW CONTENT\n' },
            },
          ],
        }),
        JSON.stringify({ blocks: [{ type: 'text', text: 'Rewrote it.' }] }),
      ].join('\n'),
    )
    const env = ptyEnv(home)
    const cli = startCli(['--model', `scripted:${script}`, '--cwd', project], env, SIZE)
    await cli.waitFor((out) => out.includes('Ask anything'), 'the composer')
    cli.mark()
    await cli.typeText('rewrite a')
    await cli.type(ENTER)
    // The last drawn card, from its title to its bottom border.
    const lastCard = (out: string) => {
      const from = out.lastIndexOf('Write a.txt')
      const to = out.indexOf('╰', from)
      return from < 0 || to < 0 ? '' : out.slice(from, to)
    }
    const card = await cli.waitFor(
      (out) => lastCard(out).includes('[n] No') && lastCard(out).includes('+NEW CONTENT'),
      'the approval card',
    )
    const drawn = lastCard(card)
    expect(drawn).toContain('a.txt +1 -40')
    expect(drawn).toContain('+NEW CONTENT')
    expect(drawn).toMatch(/… \d+ more lines \(ctrl\+o to see the whole change\)/)
    expect(drawn).not.toContain(project)
    expect(drawn).not.toMatch(/Index:|\+\+\+ |--- /)
    // The card with its borders, the prompt's line and the status line fit in 24 rows.
    expect(drawn.split('\n').length).toBeLessThanOrEqual(20)
    cli.mark()
    await cli.type('\u000f')
    const whole = await cli.waitFor((out) => out.includes('change to a.txt'), 'the whole change')
    for (const line of ['-old 1', '-old 20', '-old 40', '+NEW CONTENT']) expect(whole).toContain(line)
    cli.mark()
    await cli.type('y')
    // (The engine refuses to overwrite a file the agent never read; the card's answer still went through.)
    await cli.waitFor((out) => out.includes('Rewrote it.'), 'the answer')
  })

  it('draws tab-indented lines with spaces, so the card keeps its right border', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm build' before the pty tests.`)
    const home = tempDir('ze-pty-tab-home-')
    const project = tempDir('ze-pty-tab-proj-')
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
              input: { file_path: 'tabs.go', content: 'func f() int {\n\tif true {\n\t\treturn 1\n\t}\n}\n' },
            },
          ],
        }),
        JSON.stringify({ blocks: [{ type: 'text', text: 'Wrote it.' }] }),
      ].join('\n'),
    )
    const cli = startCli(['--model', `scripted:${script}`, '--cwd', project], ptyEnv(home), SIZE)
    await cli.waitFor((out) => out.includes('Ask anything'), 'the composer')
    cli.mark()
    await cli.typeText('write tabs')
    await cli.type(ENTER)
    const lastCard = (out: string) => {
      const from = out.lastIndexOf('╭', out.lastIndexOf('Write tabs.go'))
      const to = out.indexOf('╯', out.lastIndexOf('[n] No'))
      return from < 0 || to < 0 ? '' : out.slice(from, to + 1)
    }
    const card = lastCard(
      await cli.waitFor(
        (out) => lastCard(out).includes('return 1'),
        'the approval card with the tabbed lines',
      ),
    )
    expect(card).not.toContain('\t')
    expect(card).toMatch(/\+ {7}return 1/)
    const rows = card.split('\n').map((row) => row.trimEnd())
    const width = rows[0]?.length ?? 0
    for (const row of rows.filter((line) => line.trimStart().startsWith('│'))) {
      expect(row.endsWith('│'), row).toBe(true)
      expect(row.length, row).toBe(width)
    }
    await cli.type('y')
    await cli.waitFor((out) => out.includes('Wrote it.'), 'the answer')
  })
})
