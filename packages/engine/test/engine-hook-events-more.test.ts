/**
 * Issue 38: hook events that were accepted but never fired now fire at their moment, on a real
 * Engine with real hook scripts reading Claude Code's stdin: PostCompact after a summary,
 * PreModelSwitch (which may keep the model) and PostModelSwitch around a model change, StopFailure
 * when a turn ends on a model error, PostToolBatch once per batch, UserPromptExpansion when a
 * command becomes a prompt, InstructionsLoaded for each instruction file entering the context.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

afterAll(() => cleanupTempDirs())

/**
 * A home whose settings record every listed event's stdin (one JSON line each) in
 * `<home>/logs/<event>.jsonl`. Hooks run confined (issue 34): `~/logs` is made writable.
 */
function recordingHome(events: Array<{ event: string; matcher?: string; refuse?: string }>): string {
  const home = tempDir('ze-home-')
  mkdirSync(join(home, 'config'), { recursive: true })
  mkdirSync(join(home, 'logs'), { recursive: true })
  const toml: string[] = []
  for (const { event, matcher, refuse } of events) {
    const hook = join(home, 'logs', `${event}.sh`)
    const log = join(home, 'logs', `${event}.jsonl`)
    // `refuse`: an input holding that word is refused (exit 2, Claude Code's block).
    writeFileSync(
      hook,
      `#!/bin/sh\ninput=$(cat)\nprintf '%s\\n' "$input" >> '${log}'\n${refuse ? `case "$input" in *${refuse}*) echo "not allowed here" >&2; exit 2;; esac\n` : ''}`,
    )
    chmodSync(hook, 0o755)
    toml.push(`[[hooks.${event}]]`, ...(matcher ? [`matcher = "${matcher}"`] : []), `command = "${hook}"`, '')
  }
  toml.push('[shell.sandbox]', 'write_paths = ["~/logs"]', '')
  writeFileSync(join(home, 'config', 'settings.toml'), toml.join('\n'))
  return home
}

function recorded(home: string, event: string): Array<Record<string, unknown>> {
  const file = join(home, 'logs', `${event}.jsonl`)
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('hook events fired since issue 38', { timeout: 60_000 }, () => {
  it('PostCompact gets the trigger and the summary after /compact', async () => {
    const project = buggyProject()
    const home = recordingHome([{ event: 'PreCompact' }, { event: 'PostCompact' }])
    const t = await engineWith((request) => {
      if (request.system[0]?.text.startsWith('You summarize'))
        return { blocks: [{ type: 'text', text: 'They talked about math.js.' }] }
      return { blocks: [{ type: 'text', text: 'ok' }] }
    }, home)
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    // Enough history that a summary is worth it (a short chat has nothing to compact).
    for (const word of ['one', 'two', 'three', 'four', 'five', 'six']) {
      session.send({ type: 'submit', text: `${word} `.repeat(3000) })
      await session.idle()
    }
    expect(recorded(home, 'PostCompact')).toEqual([])
    session.send({ type: 'runCommand', name: 'compact', args: '' })
    await session.idle()
    const said = t.events(session, 'notice').map((event) => (event.type === 'notice' ? event.message : ''))
    expect(t.events(session, 'compacted'), said.join('\n')).toHaveLength(1)
    expect(recorded(home, 'PreCompact')).toHaveLength(1)
    const [post] = recorded(home, 'PostCompact')
    expect(post).toMatchObject({
      hook_event_name: 'PostCompact',
      trigger: 'manual',
      compact_summary: expect.stringContaining('They talked about math.js.'),
    })
    await session.close()
    await t.engine.shutdown()
  })

  it('PreModelSwitch and PostModelSwitch around /model and setModel; a blocking PreModelSwitch keeps the model', async () => {
    const project = buggyProject()
    const home = recordingHome([{ event: 'PreModelSwitch', refuse: 'frozen' }, { event: 'PostModelSwitch' }])
    const t = await engineWith(() => ({ blocks: [{ type: 'text', text: 'ok' }] }), home)
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'runCommand', name: 'model', args: 'scripted:y' })
    await t.waitFor(session, 'modelChanged')
    await session.idle()
    const switched = {
      hook_event_name: 'PostModelSwitch',
      // The scripted provider's model id is `scripted` whatever the reference says.
      from_model: 'scripted',
      to_model: 'scripted',
      requested_model: 'scripted:y',
      source: 'command',
      context_tokens: 0,
    }
    expect(recorded(home, 'PostModelSwitch')).toEqual([expect.objectContaining(switched)])
    expect(recorded(home, 'PreModelSwitch')).toEqual([
      expect.objectContaining({ ...switched, hook_event_name: 'PreModelSwitch' }),
    ])

    // An embedder's setModel is the `sdk` source; a hook that exits 2 keeps the model.
    session.send({ type: 'setModel', model: 'scripted:frozen' })
    await session.idle()
    const notices = t.events(session, 'notice').flatMap((event) => (event.type === 'notice' ? [event] : []))
    expect(notices).toContainEqual(
      expect.objectContaining({
        code: 'model_switch_blocked',
        message: expect.stringContaining('not allowed here'),
      }),
    )
    expect(t.events(session, 'modelChanged')).toHaveLength(1)
    expect(recorded(home, 'PreModelSwitch').at(-1)).toMatchObject({
      requested_model: 'scripted:frozen',
      source: 'sdk',
    })
    expect(recorded(home, 'PostModelSwitch')).toHaveLength(1)
    await session.close()
    await t.engine.shutdown()
  })

  it("StopFailure gets Claude Code's error kind when a turn ends on a model error, matched on it", async () => {
    const project = buggyProject()
    const home = recordingHome([{ event: 'StopFailure', matcher: 'authentication_failed' }])
    const t = await engineWith(
      [
        { blocks: [{ type: 'text', text: 'fine' }] },
        {
          error: {
            kind: 'authentication',
            message: 'The provider refused the API key; set a valid one.',
            providerMessage: 'invalid x-api-key',
          },
        },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'first' })
    await session.idle()
    expect(recorded(home, 'StopFailure')).toEqual([])
    session.send({ type: 'submit', text: 'second' })
    await session.idle()
    expect(t.events(session, 'turnFinished').at(-1)).toMatchObject({ outcome: { type: 'failed' } })
    expect(recorded(home, 'StopFailure')).toEqual([
      expect.objectContaining({
        hook_event_name: 'StopFailure',
        error: 'authentication_failed',
        error_details: 'invalid x-api-key',
      }),
    ])
    await session.close()
    await t.engine.shutdown()
  })

  it('PostToolBatch gets every call of a batch once, with its result, after the last one', async () => {
    const project = buggyProject()
    const home = recordingHome([{ event: 'PostToolUse' }, { event: 'PostToolBatch' }])
    const t = await engineWith(
      [
        {
          blocks: [
            { type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } },
            { type: 'tool_use', name: 'Glob', input: { pattern: '*.js' } },
          ],
        },
        { blocks: [{ type: 'text', text: 'read both' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'look' })
    await session.idle()
    expect(recorded(home, 'PostToolUse')).toHaveLength(2)
    const batches = recorded(home, 'PostToolBatch')
    expect(batches).toHaveLength(1)
    expect(batches[0]).toMatchObject({
      hook_event_name: 'PostToolBatch',
      tool_calls: [
        {
          tool_name: 'Read',
          tool_input: { file_path: join(project, 'math.js') },
          tool_response: expect.any(String),
        },
        {
          tool_name: 'Glob',
          tool_input: { pattern: '*.js' },
          tool_response: expect.stringContaining('math.js'),
        },
      ],
    })
    await session.close()
    await t.engine.shutdown()
  })

  it('UserPromptExpansion gets a /command as it became a prompt; a block drops the command', async () => {
    const project = buggyProject()
    const home = recordingHome([{ event: 'UserPromptExpansion', refuse: 'deploy' }])
    mkdirSync(join(home, '.claude', 'commands'), { recursive: true })
    writeFileSync(
      join(home, '.claude', 'commands', 'greet.md'),
      '---\ndescription: Greet\n---\nSay hello to $ARGUMENTS.\n',
    )
    writeFileSync(
      join(home, '.claude', 'commands', 'deploy.md'),
      '---\ndescription: Deploy\n---\nDeploy $ARGUMENTS.\n',
    )
    const t = await engineWith(() => ({ blocks: [{ type: 'text', text: 'hello' }] }), home)
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'runCommand', name: 'greet', args: 'world' })
    await t.waitFor(session, 'turnFinished')
    await session.idle()
    expect(recorded(home, 'UserPromptExpansion')).toEqual([
      expect.objectContaining({
        hook_event_name: 'UserPromptExpansion',
        expansion_type: 'slash_command',
        command_name: 'greet',
        command_args: 'world',
        prompt: expect.stringContaining('Say hello to world.'),
      }),
    ])
    expect(t.client.requests).toHaveLength(1)
    session.send({ type: 'runCommand', name: 'deploy', args: 'prod' })
    await session.idle()
    expect(recorded(home, 'UserPromptExpansion')).toHaveLength(2)
    expect(t.client.requests).toHaveLength(1)
    const notices = t
      .events(session, 'notice')
      .flatMap((event) => (event.type === 'notice' ? [event.message] : []))
    expect(notices).toContainEqual(expect.stringContaining('/deploy was not run: not allowed here'))
    await session.close()
    await t.engine.shutdown()
  })

  it('InstructionsLoaded reports each instruction file as it enters the context: at start, by import, nested, by glob', async () => {
    const project = buggyProject()
    const home = recordingHome([{ event: 'InstructionsLoaded' }])
    mkdirSync(join(home, '.claude'), { recursive: true })
    writeFileSync(join(home, '.claude', 'CLAUDE.md'), 'Be brief.\n')
    mkdirSync(join(project, 'docs'))
    writeFileSync(join(project, 'docs', 'style.md'), 'Tabs, not spaces.\n')
    writeFileSync(join(project, 'CLAUDE.md'), 'Run the tests. See @docs/style.md\n')
    writeFileSync(join(project, 'CLAUDE.local.md'), 'My notes.\n')
    mkdirSync(join(project, 'src'))
    writeFileSync(join(project, 'src', 'app.ts'), 'export {}\n')
    writeFileSync(join(project, 'src', 'CLAUDE.md'), 'Source notes.\n')
    mkdirSync(join(project, '.claude', 'rules'), { recursive: true })
    writeFileSync(join(project, '.claude', 'rules', 'ts.md'), '---\npaths: src/**/*.ts\n---\nStrict types.\n')
    const t = await engineWith(
      [
        {
          blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'src', 'app.ts') } }],
        },
        { blocks: [{ type: 'text', text: 'ok' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    const loads = recorded(home, 'InstructionsLoaded').map((input) => ({
      file_path: input.file_path,
      memory_type: input.memory_type,
      load_reason: input.load_reason,
      ...(input.parent_file_path !== undefined ? { parent_file_path: input.parent_file_path } : {}),
    }))
    expect(loads).toEqual([
      { file_path: join(home, '.claude', 'CLAUDE.md'), memory_type: 'User', load_reason: 'session_start' },
      { file_path: join(project, 'CLAUDE.md'), memory_type: 'Project', load_reason: 'session_start' },
      {
        file_path: join(project, 'docs', 'style.md'),
        memory_type: 'Project',
        load_reason: 'include',
        parent_file_path: join(project, 'CLAUDE.md'),
      },
      { file_path: join(project, 'CLAUDE.local.md'), memory_type: 'Local', load_reason: 'session_start' },
    ])
    expect(recorded(home, 'InstructionsLoaded')[0]).toMatchObject({ hook_event_name: 'InstructionsLoaded' })

    // A nested file and a glob rule load when a call first touches a path under them.
    session.send({ type: 'submit', text: 'read it' })
    await session.idle()
    expect(recorded(home, 'InstructionsLoaded').slice(4)).toEqual([
      expect.objectContaining({
        file_path: join(project, 'src', 'CLAUDE.md'),
        memory_type: 'Project',
        load_reason: 'nested_traversal',
        trigger_file_path: join(project, 'src', 'app.ts'),
      }),
      expect.objectContaining({
        file_path: join(project, '.claude', 'rules', 'ts.md'),
        memory_type: 'Project',
        load_reason: 'path_glob_match',
        globs: ['src/**/*.ts'],
      }),
    ])
    await session.close()
    await t.engine.shutdown()
  })
})
