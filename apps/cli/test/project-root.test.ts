/**
 * Issue 19 "Project root = the repository root": run from a subfolder, the project is the folder
 * holding `.git` (its settings, sessions and instructions), while the shell starts in the subfolder.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runInProcess, sandbox } from './helpers.js'

type Line = Record<string, unknown> & { type: string }

describe('the project root is the repository root', () => {
  it('exec from src/ uses the root settings, sessions and instructions; Bash runs in src/', async () => {
    const box = await sandbox()
    const src = join(box.project, 'src')
    await mkdir(src)
    await mkdir(join(box.project, '.z-engine'))
    // A restrictive project rule applies without trust: a call it denies shows it was read.
    await writeFile(
      join(box.project, '.z-engine', 'settings.toml'),
      '[permissions]\ndeny = ["Write(**/secret.txt)"]\n',
    )
    await writeFile(join(box.project, 'AGENTS.md'), 'Say the word tangerine.\n')
    const script = await box.script('pwd.jsonl', [
      { blocks: [{ type: 'tool_use', name: 'Bash', input: { command: 'pwd' } }] },
      { blocks: [{ type: 'tool_use', name: 'Write', input: { file_path: 'secret.txt', content: 'x\n' } }] },
      { blocks: [{ type: 'text', text: 'Done.' }] },
    ])
    const run = (argv: string[], cwd = src) => runInProcess(argv, { cwd, env: box.env })
    const result = await run([
      'exec',
      '--model',
      `scripted:${script}`,
      '--permission-mode',
      'bypass',
      '--output-format',
      'stream-json',
      'where am I?',
    ])
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Line)
    expect(lines[0]).toMatchObject({ type: 'run_start', project_root: box.project })
    const outputs = lines.filter((line) => line.type === 'tool_result')
    expect(outputs[0]).toMatchObject({ name: 'Bash', status: 'ok' })
    expect(String(outputs[0]?.output).trim()).toBe(src)
    expect(outputs[1]).toMatchObject({ name: 'Write', status: 'denied' })

    // The session belongs to the repository: listed from the root and from src/ alike.
    const sessionId = lines[0]?.session_id
    for (const cwd of [box.project, src]) {
      const listed = JSON.parse((await run(['sessions', 'list', '--json'], cwd)).stdout) as Array<{
        sessionId: string
      }>
      expect(listed.map((session) => session.sessionId)).toEqual([sessionId])
    }
    // Instructions resolve at the root too.
    const instructions = await run(['instructions', '--json'])
    expect(instructions.code, instructions.stderr).toBe(0)
    expect(JSON.parse(instructions.stdout)).toMatchObject({
      projectRoot: box.project,
      files: [{ scope: 'project', path: 'AGENTS.md', content: 'Say the word tangerine.\n' }],
    })

    // --cwd names the project exactly: src/ is then a project of its own, with no sessions.
    const own = JSON.parse((await run(['sessions', 'list', '--json', '--cwd', src], box.root)).stdout)
    expect(own).toEqual([])
  }, 120_000)
})
