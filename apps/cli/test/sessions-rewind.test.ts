/**
 * Issue 19 "Safe rewind" through the CLI: `sessions rewind` reverts only what the agent's tools and
 * shell commands changed, keeps the user's files and the user's later edits of the agent's files
 * (issue 39: hunk by hunk; a hunk both changed is left and reported, `--include-edited --only FILE`
 * reverts that file whole), `--dry-run` shows the hunks and changes nothing, and `--undo` puts the
 * reverted files back.
 */
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runInProcess, sandbox } from './helpers.js'

describe('sessions rewind (in process)', () => {
  it('dry run, rewind with a hand-made change left intact, and undo', async () => {
    const box = await sandbox()
    const { project } = box
    await writeFile(join(project, 'a.txt'), 'original a\n')
    await writeFile(join(project, 'b.txt'), 'original b\n')
    const script = await box.script('edit.jsonl', [
      { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: 'a.txt' } }] },
      { blocks: [{ type: 'tool_use', name: 'Write', input: { file_path: 'a.txt', content: 'agent a\n' } }] },
      {
        blocks: [
          { type: 'tool_use', name: 'Bash', input: { command: 'echo agent b > b.txt; echo new > gen.txt' } },
        ],
      },
      { blocks: [{ type: 'text', text: 'Done.' }] },
    ])
    const run = (argv: string[]) => runInProcess(argv, { cwd: project, env: box.env })
    const made = await run([
      'exec',
      '--model',
      `scripted:${script}`,
      '--permission-mode',
      'bypass',
      '--output-format',
      'json',
      'change things',
    ])
    expect(made.code, made.stderr).toBe(0)
    const id = (JSON.parse(made.stdout) as { session_id: string }).session_id
    const shown = JSON.parse((await run(['sessions', 'show', id, '--json'])).stdout) as {
      transcript: Array<{ kind: string; message?: { id: string; role: string } }>
    }
    const messageId = shown.transcript.find((item) => item.message?.role === 'user')?.message?.id ?? ''

    // By hand, after the agent's turn: a new file, and an edit of a file the agent wrote.
    await writeFile(join(project, 'mine.txt'), 'made by hand\n')
    await writeFile(join(project, 'b.txt'), 'the user fixed b\n')
    const files = async () => ({
      a: await readFile(join(project, 'a.txt'), 'utf8'),
      b: await readFile(join(project, 'b.txt'), 'utf8'),
      gen: existsSync(join(project, 'gen.txt')),
      mine: await readFile(join(project, 'mine.txt'), 'utf8'),
    })
    const handMade = { a: 'agent a\n', b: 'the user fixed b\n', gen: true, mine: 'made by hand\n' }
    expect(await files()).toEqual(handMade)

    const dry = await run([
      'sessions',
      'rewind',
      id.slice(0, 8),
      '--to',
      messageId,
      '--scope',
      'code',
      '--dry-run',
    ])
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stdout).toContain('would:')
    expect(dry.stdout).toContain('  revert   a.txt')
    expect(dry.stdout).toContain('  revert   gen.txt')
    // b.txt: the agent's one line was then edited by hand too: that hunk is left, and reported.
    expect(dry.stdout).toContain(
      "  merged   b.txt (the agent's hunks reverted except 1 that later edits overlap: left as they are; --include-edited --only b.txt reverts it whole)",
    )
    expect(dry.stdout).toContain('The hunks for a.txt:')
    expect(dry.stdout).toContain('-agent a')
    expect(dry.stdout).toContain('+original a')
    expect(dry.stdout).toContain('  kept     mine.txt (not changed by the agent)')
    expect(dry.stdout).toContain('Nothing was changed (--dry-run).')
    expect(await files()).toEqual(handMade)

    const rewound = await run(['sessions', 'rewind', id, '--to', messageId, '--scope', 'code', '--json'])
    expect(rewound.code, rewound.stderr).toBe(0)
    expect(JSON.parse(rewound.stdout)).toMatchObject({
      dryRun: false,
      restoredFiles: ['a.txt', 'gen.txt'],
      skippedFiles: [],
      mergedFiles: ['b.txt'],
      conflictFiles: [
        { path: 'b.txt', hunks: [{ current: 'the user fixed b', agent: 'agent b', restored: 'original b' }] },
      ],
      leftAloneFiles: ['mine.txt'],
    })
    expect(await files()).toEqual({
      a: 'original a\n',
      b: 'the user fixed b\n',
      gen: false,
      mine: 'made by hand\n',
    })

    const undone = await run(['sessions', 'rewind', id, '--undo'])
    expect(undone.code, undone.stderr).toBe(0)
    expect(undone.stdout).toContain('2 file(s) put back')
    expect(await files()).toEqual(handMade)
    const again = await run(['sessions', 'rewind', id, '--undo'])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('Nothing to undo')
    expect((await run(['sessions', 'rewind', id, '--undo', '--to', messageId])).code).toBe(2)

    // The other answer to the overlapping hunk: revert that one file whole.
    expect(
      (await run(['sessions', 'rewind', id, '--to', messageId, '--only', 'b.txt', '--scope', 'both'])).code,
    ).toBe(2)
    const whole = await run([
      'sessions',
      'rewind',
      id,
      '--to',
      messageId,
      '--include-edited',
      '--only',
      'b.txt',
    ])
    expect(whole.code, whole.stderr).toBe(0)
    expect(whole.stdout).toContain('  restored b.txt')
    expect(await files()).toEqual({ ...handMade, b: 'original b\n' })
  }, 120_000)
})
