import { readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HAVE_DIST, runChild, runInProcess, sandbox } from './helpers.js'

const e2e = describe.runIf(HAVE_DIST)

interface JsonResult {
  session_id: string
  result: string
  outcome: string
}

e2e('sessions across CLI processes (built dist)', () => {
  it('--resume and --continue carry the conversation into a second process; --fork copies it', async () => {
    const box = await sandbox()
    const first = await box.script('first.jsonl', [
      { blocks: [{ type: 'text', text: 'Noted: the word is kiwi.' }] },
    ])
    const second = await box.script('second.jsonl', [
      { blocks: [{ type: 'text', text: 'The word was kiwi.' }] },
    ])
    const run = (argv: string[]) => runChild(argv, { cwd: box.project, env: box.env })

    const a = await run(['exec', '--model', `scripted:${first}`, '--output-format', 'json', 'remember kiwi'])
    expect(a.code, a.stderr).toBe(0)
    const id = (JSON.parse(a.stdout) as JsonResult).session_id

    const b = await run([
      'exec',
      '--model',
      `scripted:${second}`,
      '--output-format',
      'json',
      '--resume',
      id,
      'which word?',
    ])
    expect(b.code, b.stderr).toBe(0)
    expect((JSON.parse(b.stdout) as JsonResult).session_id).toBe(id)

    const c = await run([
      'exec',
      '--model',
      `scripted:${second}`,
      '--output-format',
      'json',
      '--continue',
      'again?',
    ])
    expect(c.code, c.stderr).toBe(0)
    expect((JSON.parse(c.stdout) as JsonResult).session_id).toBe(id)

    const shown = await run(['sessions', 'show', id, '--json'])
    expect(shown.code, shown.stderr).toBe(0)
    const snapshot = JSON.parse(shown.stdout) as {
      turns: unknown[]
      transcript: Array<{ kind: string; message?: { role: string; content: Array<{ text?: string }> } }>
    }
    expect(snapshot.turns).toHaveLength(3)
    const texts = snapshot.transcript.flatMap(
      (item) => item.message?.content.map((block) => block.text ?? '') ?? [],
    )
    expect(texts).toEqual(
      expect.arrayContaining(['remember kiwi', 'Noted: the word is kiwi.', 'which word?', 'again?']),
    )

    const d = await run([
      'exec',
      '--model',
      `scripted:${second}`,
      '--output-format',
      'stream-json',
      '--fork',
      id,
      'fork it',
    ])
    expect(d.code, d.stderr).toBe(0)
    const start = JSON.parse(d.stdout.split('\n')[0] ?? '{}') as { session_id: string; resumed: boolean }
    expect(start.session_id).not.toBe(id)
    const forkShown = JSON.parse((await run(['sessions', 'show', start.session_id, '--json'])).stdout) as {
      turns: unknown[]
      parent?: { sessionId: string }
    }
    expect(forkShown.turns).toHaveLength(4)
    expect(forkShown.parent?.sessionId).toBe(id)
    // The original is untouched by the fork's turn.
    expect(
      (JSON.parse((await run(['sessions', 'show', id, '--json'])).stdout) as { turns: unknown[] }).turns,
    ).toHaveLength(3)

    // --resume from another folder continues in the session's own project.
    const elsewhere = await runChild(
      [
        'exec',
        '--model',
        `scripted:${second}`,
        '--output-format',
        'stream-json',
        '--resume',
        id,
        'from elsewhere',
      ],
      { cwd: box.root, env: box.env },
    )
    expect(elsewhere.code, elsewhere.stderr).toBe(0)
    expect(JSON.parse(elsewhere.stdout.split('\n')[0] ?? '{}')).toMatchObject({
      project_root: box.project,
      resumed: true,
    })

    const listed = JSON.parse((await run(['sessions', 'list', '--json'])).stdout) as Array<{
      sessionId: string
    }>
    expect(listed.map((session) => session.sessionId).sort()).toEqual([id, start.session_id].sort())
  })
})

describe('sessions (in process)', () => {
  it('list, show, fork --at and rewind --to restore files and conversation', async () => {
    const box = await sandbox()
    const env = box.env
    const script = await box.script('edit.jsonl', [
      { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: 'a.txt' } }] },
      { blocks: [{ type: 'tool_use', name: 'Write', input: { file_path: 'a.txt', content: 'changed\n' } }] },
      { blocks: [{ type: 'text', text: 'Wrote a.txt.' }] },
    ])
    await writeFile(join(box.project, 'a.txt'), 'original\n')
    const run = (argv: string[]) => runInProcess(argv, { cwd: box.project, env })
    const none = await run(['sessions', 'list'])
    expect(none.stdout).toContain('No sessions')

    const made = await run([
      'exec',
      '--model',
      `scripted:${script}`,
      '--permission-mode',
      'acceptEdits',
      '--output-format',
      'json',
      'edit a',
    ])
    expect(made.code, made.stderr).toBe(0)
    expect(await readFile(join(box.project, 'a.txt'), 'utf8')).toBe('changed\n')
    const id = (JSON.parse(made.stdout) as JsonResult).session_id

    const listed = await run(['sessions', 'list'])
    expect(listed.stdout).toContain(`${id.slice(0, 8)}  just now  edit a`)
    const text = await run(['sessions', 'show', id])
    expect(text.code).toBe(0)
    expect(text.stdout).toContain('user: edit a')
    expect(text.stdout).toContain('▸ Write ok')

    const snapshot = JSON.parse((await run(['sessions', 'show', id, '--json'])).stdout) as {
      transcript: Array<{ kind: string; recordId?: string; message?: { id: string; role: string } }>
    }
    const userMessage = snapshot.transcript.find(
      (item) => item.kind === 'message' && item.message?.role === 'user',
    )
    expect(userMessage?.message?.id).toBeTruthy()

    const forked = await run(['sessions', 'fork', id, '--at', userMessage?.recordId ?? '', '--json'])
    expect(forked.code, forked.stderr).toBe(0)
    const forkId = (JSON.parse(forked.stdout) as { sessionId: string }).sessionId
    const forkSnapshot = JSON.parse((await run(['sessions', 'show', forkId, '--json'])).stdout) as {
      transcript: Array<{ kind: string }>
    }
    expect(forkSnapshot.transcript.filter((item) => item.kind === 'message')).toHaveLength(1)

    const rewound = await run(['sessions', 'rewind', id, '--to', userMessage?.message?.id ?? '', '--json'])
    expect(rewound.code, rewound.stderr).toBe(0)
    expect(JSON.parse(rewound.stdout)).toMatchObject({ scope: 'both' })
    expect(await readFile(join(box.project, 'a.txt'), 'utf8')).toBe('original\n')
    const after = JSON.parse((await run(['sessions', 'show', id, '--json'])).stdout) as {
      transcript: Array<{ kind: string }>
    }
    expect(after.transcript.filter((item) => item.kind === 'message')).toHaveLength(0)
  })

  it('--continue and sessions list find the session through a symlinked project folder', async () => {
    const box = await sandbox()
    const link = join(box.root, 'link')
    await symlink(box.project, link)
    const script = await box.script('ok.jsonl', [{ blocks: [{ type: 'text', text: 'ok' }] }])
    const first = await runInProcess(
      ['exec', '--model', `scripted:${script}`, '--output-format', 'json', 'one'],
      {
        cwd: box.project,
        env: box.env,
      },
    )
    const id = (JSON.parse(first.stdout) as JsonResult).session_id
    const listed = await runInProcess(['sessions', 'list', '--json', '--cwd', link], {
      cwd: box.root,
      env: box.env,
    })
    expect(
      (JSON.parse(listed.stdout) as Array<{ sessionId: string }>).map((session) => session.sessionId),
    ).toEqual([id])
    const again = await runInProcess(
      [
        'exec',
        '--model',
        `scripted:${script}`,
        '--output-format',
        'json',
        '--continue',
        '--cwd',
        link,
        'two',
      ],
      { cwd: box.root, env: box.env },
    )
    expect(again.code, again.stderr).toBe(0)
    expect((JSON.parse(again.stdout) as JsonResult).session_id).toBe(id)
  })

  it('fails clearly on unknown ids and bad arguments', async () => {
    const box = await sandbox()
    const run = (argv: string[]) => runInProcess(argv, { cwd: box.project, env: box.env })
    const missing = await run(['sessions', 'show', 'nope'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('sessions list')
    expect((await run(['sessions', 'shwo'])).stderr).toContain("Did you mean 'show'?")
    expect((await run(['sessions', 'rewind', 'x'])).code).toBe(2)
    expect((await run(['sessions', 'rewind', 'x', '--to', 'm', '--scope', 'files'])).code).toBe(2)
  })
})
