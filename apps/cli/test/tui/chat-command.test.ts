import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseChatArgs } from '../../src/commands/chat.js'
import { runCli } from '../../src/router.js'
import { memoryIo } from '../../src/testing-io.js'
import { tempDir } from './harness.js'

describe('z-engine chat flags', () => {
  it('reads model, mode, resume and cwd', async () => {
    const project = tempDir('ze-chat-flags-')
    const { io } = memoryIo(
      ['--model', 'scripted:x.jsonl', '--permission-mode', 'bypassPermissions', '--resume', 'abc'],
      {
        cwd: project,
      },
    )
    expect(await parseChatArgs(io)).toEqual({
      projectRoot: project,
      model: 'scripted:x.jsonl',
      mode: 'bypass',
      session: { kind: 'resume', id: 'abc' },
    })
    // From a subfolder of a repository: the project is the repository, the shell starts there.
    mkdirSync(join(project, '.git'))
    mkdirSync(join(project, 'src'))
    expect(await parseChatArgs(memoryIo([], { cwd: join(project, 'src') }).io)).toMatchObject({
      projectRoot: project,
      cwd: join(project, 'src'),
    })
  })
  it('refuses --resume with --continue, an unknown mode and a prompt argument', async () => {
    const cwd = tempDir('ze-chat-flags-')
    await expect(parseChatArgs(memoryIo(['--resume', 'a', '--continue'], { cwd }).io)).rejects.toThrow(
      'only one of --resume, --continue and --fork',
    )
    await expect(parseChatArgs(memoryIo(['--permission-mode', 'yolo'], { cwd }).io)).rejects.toThrow('yolo')
    await expect(parseChatArgs(memoryIo(['fix', 'it'], { cwd }).io)).rejects.toThrow('z-engine exec')
  })
  it('runs from the router with leading flags and says it needs a terminal', async () => {
    const cwd = tempDir('ze-chat-flags-')
    const run = memoryIo(['--model', 'scripted:x.jsonl'], { cwd })
    expect(await runCli(run.io)).toBe(2)
    expect(run.stderr()).toContain('needs a terminal')
    expect(run.stderr()).toContain('z-engine exec')
  })
  it('lists chat and acp in the help', async () => {
    const run = memoryIo(['--help'])
    expect(await runCli(run.io)).toBe(0)
    expect(run.stdout()).toMatch(/\n\s+chat\s/)
    expect(run.stdout()).toMatch(/\n\s+acp\s/)
  })
})
