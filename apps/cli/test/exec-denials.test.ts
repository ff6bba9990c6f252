import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runInProcess, type Sandbox, sandbox } from './helpers.js'

async function userDeny(box: Sandbox, rules: string[]): Promise<void> {
  const config = join(box.root, 'config', 'z-engine')
  await mkdir(config, { recursive: true })
  await writeFile(join(config, 'settings.toml'), `[permissions]\ndeny = ${JSON.stringify(rules)}\n`)
}

function linesOf(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('exec: honest results when calls are denied', () => {
  it('a deny rule: a permission line, permission_denials, is_error and exit 4 when nothing changed', async () => {
    const box = await sandbox()
    await userDeny(box, ['Bash(rm:*)'])
    const script = await box.script('rm.jsonl', [
      { blocks: [{ type: 'tool_use', name: 'Bash', input: { command: 'rm README.md' } }] },
      { blocks: [{ type: 'text', text: 'I could not remove it.' }] },
    ])
    const run = await runInProcess(
      [
        'exec',
        '--model',
        `scripted:${script}`,
        '--output-format',
        'stream-json',
        '--permission-mode',
        'bypass',
        'rm',
      ],
      { cwd: box.project, env: box.env },
    )
    expect(run.code, run.stderr).toBe(4)
    const lines = linesOf(run.stdout)
    const permission = lines.find((line) => line.type === 'permission')
    expect(permission).toMatchObject({
      tool_name: 'Bash',
      decision: 'deny',
      reason: expect.stringContaining('rm'),
    })
    expect(lines.some((line) => line.type === 'permission_request')).toBe(false)
    expect(lines.find((line) => line.type === 'final')).toMatchObject({
      outcome: 'done',
      is_error: true,
      permission_denials: [
        { tool_name: 'Bash', tool_input: { command: 'rm README.md' }, reason: permission?.reason },
      ],
    })
    expect(await readFile(join(box.project, 'README.md'), 'utf8')).toBe('# demo\n')
  })

  it('not an error when some change went through; text mode names the failed call, its path and why', async () => {
    const box = await sandbox()
    await userDeny(box, ['Bash(rm:*)'])
    const script = await box.script('mixed.jsonl', [
      {
        blocks: [
          { type: 'tool_use', name: 'Read', input: { file_path: 'missing.txt' } },
          { type: 'tool_use', name: 'Write', input: { file_path: 'notes.txt', content: 'hi\n' } },
          { type: 'tool_use', name: 'Bash', input: { command: 'rm README.md' } },
        ],
      },
      { blocks: [{ type: 'text', text: 'Wrote notes.txt.' }] },
    ])
    const text = await runInProcess(
      ['exec', '--model', `scripted:${script}`, '--permission-mode', 'acceptEdits', 'write notes'],
      { cwd: box.project, env: box.env },
    )
    expect(text.code, text.stderr).toBe(0)
    expect(await readFile(join(box.project, 'notes.txt'), 'utf8')).toBe('hi\n')
    expect(text.stderr).toMatch(/✗ Read \S*missing\.txt failed: .+/)
    expect(text.stderr).toMatch(/✗ Bash rm README\.md denied: .*rm/)
    expect(text.stderr).not.toContain('error: nothing was changed')
    const again = await box.script('again.jsonl', [
      {
        blocks: [
          { type: 'tool_use', name: 'Write', input: { file_path: 'more.txt', content: 'more\n' } },
          { type: 'tool_use', name: 'Bash', input: { command: 'rm README.md' } },
        ],
      },
      { blocks: [{ type: 'text', text: 'Wrote more.txt.' }] },
    ])
    const json = await runInProcess(
      [
        'exec',
        '--model',
        `scripted:${again}`,
        '--permission-mode',
        'acceptEdits',
        '--output-format',
        'json',
        'again',
      ],
      { cwd: box.project, env: box.env },
    )
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toMatchObject({
      is_error: false,
      exit_code: 0,
      permission_denials: [{ tool_name: 'Bash', tool_input: { command: 'rm README.md' } }],
    })
  })

  it('-p text mode: the result on stdout, and on stderr which calls were denied and how to allow them', async () => {
    const box = await sandbox()
    const script = await box.script('edit.jsonl', [
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'Edit',
            input: { file_path: 'README.md', old_string: '# demo', new_string: '# changed' },
          },
        ],
      },
      { blocks: [{ type: 'text', text: 'Swapped.' }] },
    ])
    const run = await runInProcess(['-p', 'change it', '--model', `scripted:${script}`], {
      cwd: box.project,
      env: box.env,
    })
    expect(run.code).toBe(4)
    expect(run.stdout).toBe('Swapped.\n')
    expect(run.stderr).toContain('z-engine: 1 tool call denied (Edit README.md)')
    expect(run.stderr).toContain('--permission-mode acceptEdits')
    expect(await readFile(join(box.project, 'README.md'), 'utf8')).toBe('# demo\n')
  })
})
