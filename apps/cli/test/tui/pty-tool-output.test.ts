/**
 * Tool output in an 80×24 pseudo-terminal against the built CLI (`pnpm build` first): a successful
 * Bash call shows its last lines collapsed with how many are hidden, and Ctrl-O prints all of it.
 */
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from './harness.js'
import { BIN, ptyEnv, startCli } from './pty-harness.js'

const ENTER = '\r'
const SIZE = { cols: 80, rows: 24 }

describe('tool output in an 80×24 pseudo-terminal', () => {
  it('collapses a successful call to its last lines and expands it with Ctrl-O', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm build' before the pty tests.`)
    const home = tempDir('ze-pty-out-home-')
    const project = tempDir('ze-pty-out-proj-')
    const script = join(home, 'script.jsonl')
    writeFileSync(
      script,
      [
        JSON.stringify({
          blocks: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'seq 101 112' } }],
        }),
        JSON.stringify({ blocks: [{ type: 'text', text: 'Counted.' }] }),
      ].join('\n'),
    )
    const env = ptyEnv(home)
    const cli = startCli(
      ['--model', `scripted:${script}`, '--cwd', project, '--permission-mode', 'bypass'],
      env,
      SIZE,
    )
    await cli.waitFor((out) => out.includes('Ask anything'), 'the composer')
    await cli.typeText('count')
    await cli.type(ENTER)
    const collapsed = await cli.waitFor((out) => out.includes('Counted.'), 'the answer')
    expect(collapsed).toContain('… 8 lines above (ctrl+o to expand)')
    expect(collapsed).toMatch(/│ 109\s*\n\s*│ 110\s*\n\s*│ 111\s*\n\s*│ 112/)
    expect(collapsed).not.toContain('│ 108')
    cli.mark()
    await cli.type('\u000f')
    const expanded = await cli.waitFor((out) => out.includes('output of'), 'the expanded output')
    for (const line of ['101', '105', '108', '112']) expect(expanded).toContain(line)
  })
})
