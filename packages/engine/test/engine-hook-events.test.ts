/**
 * Claude Code's hook events on a real Engine with real hook scripts: PostToolUse runs after a
 * success and PostToolUseFailure after a failure (with the error), each with the call's id.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

afterAll(() => cleanupTempDirs())

describe('Claude Code hook events', { timeout: 60_000 }, () => {
  it('PostToolUseFailure gets a failed call (tool_use_id, error), PostToolUse only a successful one', async () => {
    const project = buggyProject()
    const home = tempDir('ze-home-')
    // Hooks run confined (issue 34): they write into a folder the user's settings make writable.
    const logs = join(home, 'logs')
    mkdirSync(logs)
    const hook = (name: string) => {
      const path = join(logs, `${name}.sh`)
      writeFileSync(path, `#!/bin/sh\ncat >> "${logs}/${name}.jsonl"\necho >> "${logs}/${name}.jsonl"\n`)
      chmodSync(path, 0o755)
      return path
    }
    mkdirSync(join(home, 'config'), { recursive: true })
    writeFileSync(
      join(home, 'config', 'settings.toml'),
      [
        '[[hooks.PostToolUse]]',
        'matcher = "Read"',
        `command = "${hook('post')}"`,
        '[[hooks.PostToolUseFailure]]',
        'matcher = "Read"',
        `command = "${hook('failure')}"`,
        '[shell.sandbox]',
        'write_paths = ["~/logs"]',
      ].join('\n'),
    )
    const t = await engineWith(
      [
        {
          blocks: [
            { type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } },
            { type: 'tool_use', name: 'Read', input: { file_path: join(project, 'missing.js') } },
          ],
        },
        { blocks: [{ type: 'text', text: 'done' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'Read both.' })
    await t.waitFor(session, 'turnFinished')
    const lines = (name: string) =>
      readFileSync(join(logs, `${name}.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    const [post] = lines('post')
    const [failure, ...more] = lines('failure')
    expect(lines('post')).toHaveLength(1)
    expect(more).toEqual([])
    expect(post).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'Read' })
    expect(post?.tool_input).toMatchObject({ file_path: expect.stringMatching(/math\.js$/) })
    expect(typeof post?.tool_use_id).toBe('string')
    expect(failure).toMatchObject({
      hook_event_name: 'PostToolUseFailure',
      tool_name: 'Read',
      is_interrupt: false,
    })
    expect(failure?.tool_input).toMatchObject({ file_path: expect.stringMatching(/missing\.js$/) })
    expect(typeof failure?.error).toBe('string')
    expect(failure?.tool_use_id).not.toBe(post?.tool_use_id)
    await t.engine.shutdown()
  })
})

describe("an agent's frontmatter hooks", { timeout: 60_000 }, () => {
  it('run on its own tool calls only, and its Stop hooks as SubagentStop', async () => {
    const project = buggyProject()
    const home = tempDir('ze-home-')
    // Hooks run confined (issue 34): the log is in a folder the user's settings make writable.
    mkdirSync(join(home, 'logs'), { recursive: true })
    mkdirSync(join(home, 'config'), { recursive: true })
    writeFileSync(join(home, 'config', 'settings.toml'), '[shell.sandbox]\nwrite_paths = ["~/logs"]\n')
    const log = join(home, 'logs', 'agent-hooks.jsonl')
    const record = `sh -c 'cat >> "${log}"; echo >> "${log}"'`
    mkdirSync(join(home, '.claude', 'agents'), { recursive: true })
    writeFileSync(
      join(home, '.claude', 'agents', 'checker.md'),
      [
        '---',
        'name: checker',
        'description: Checks things',
        'hooks:',
        '  PreToolUse:',
        '    - matcher: Read',
        '      hooks:',
        '        - type: command',
        `          command: ${JSON.stringify(record)}`,
        '  Stop:',
        '    - hooks:',
        '        - type: command',
        `          command: ${JSON.stringify(record)}`,
        '---',
        'You check things.',
      ].join('\n'),
    )
    const read = { type: 'tool_use' as const, name: 'Read', input: { file_path: join(project, 'math.js') } }
    const t = await engineWith(
      [
        {
          blocks: [
            {
              type: 'tool_use',
              name: 'Agent',
              input: { subagent_type: 'checker', description: 'check', prompt: 'Read math.js.' },
            },
          ],
        },
        { blocks: [read] },
        { blocks: [{ type: 'text', text: 'Checked.' }] },
        // The main agent's own Read runs no agent hook.
        { blocks: [read] },
        { blocks: [{ type: 'text', text: 'Done.' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'Check.' })
    await t.waitFor(session, 'turnFinished')
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.map((line) => [line.hook_event_name, line.agent_type])).toEqual([
      ['PreToolUse', 'checker'],
      ['SubagentStop', 'checker'],
    ])
    await t.engine.shutdown()
  })
})
