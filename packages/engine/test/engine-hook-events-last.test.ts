/**
 * Issue 38: the last of Claude Code 2.1.332's hook events with a moment in Z Engine fire there, on
 * a real Engine with real hook scripts reading Claude Code's stdin: DirectoryAdded after /add-dir,
 * CwdChanged when the main agent's shell moves, PreSkillShellCommand before each embedded line of a
 * command (a refusal keeps the line from running), ConfigChange before a changed settings file
 * applies (a block keeps the session's settings). PermissionDenied has no moment and says so.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

afterAll(() => cleanupTempDirs())

interface RecordingHook {
  event: string
  matcher?: string
  /** An input holding this word is refused (exit 2 with "not allowed here" on stderr). */
  refuse?: string
  /** JSON the hook prints on stdout after recording its input. */
  print?: Record<string, unknown>
}

/**
 * A home whose settings record every listed event's stdin (one JSON line each) in
 * `<home>/logs/<event>.jsonl`; `extra` lines end the settings file. Hooks run confined (issue 34):
 * `~/logs` is made writable.
 */
function recordingHome(hooks: RecordingHook[], extra: string[] = []): string {
  const home = tempDir('ze-home-')
  mkdirSync(join(home, 'config'), { recursive: true })
  mkdirSync(join(home, 'logs'), { recursive: true })
  const toml: string[] = []
  for (const { event, matcher, refuse, print } of hooks) {
    const hook = join(home, 'logs', `${event}.sh`)
    const log = join(home, 'logs', `${event}.jsonl`)
    writeFileSync(
      hook,
      [
        '#!/bin/sh',
        'input=$(cat)',
        `printf '%s\\n' "$input" >> '${log}'`,
        ...(refuse ? [`case "$input" in *${refuse}*) echo "not allowed here" >&2; exit 2;; esac`] : []),
        ...(print ? [`printf '%s' '${JSON.stringify(print)}'`] : []),
        '',
      ].join('\n'),
    )
    chmodSync(hook, 0o755)
    toml.push(`[[hooks.${event}]]`, ...(matcher ? [`matcher = "${matcher}"`] : []), `command = "${hook}"`, '')
  }
  toml.push(...extra, '[shell.sandbox]', 'write_paths = ["~/logs"]', '')
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

describe('the last hook events fired for issue 38', { timeout: 60_000 }, () => {
  it('DirectoryAdded gets the folder /add-dir added; its systemMessage is shown', async () => {
    const project = buggyProject()
    const home = recordingHome([
      { event: 'DirectoryAdded', print: { systemMessage: 'indexed the new folder' } },
    ])
    const added = tempDir('ze-added-')
    const t = await engineWith(() => ({ blocks: [{ type: 'text', text: 'ok' }] }), home)
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'runCommand', name: 'add-dir', args: added })
    await session.idle()
    expect(recorded(home, 'DirectoryAdded')).toEqual([
      expect.objectContaining({
        hook_event_name: 'DirectoryAdded',
        directory: added,
        source: 'slash_command',
        cwd: project,
      }),
    ])
    const notices = t.events(session, 'notice').map((event) => (event.type === 'notice' ? event.message : ''))
    expect(notices).toContain('indexed the new folder')
    await session.close()
    await t.engine.shutdown()
  })

  it("CwdChanged gets the old and new folder when the main agent's Bash cd moves it; watchPaths is refused by name", async () => {
    const project = buggyProject()
    mkdirSync(join(project, 'sub'))
    const home = recordingHome(
      [
        {
          event: 'CwdChanged',
          print: { hookSpecificOutput: { hookEventName: 'CwdChanged', watchPaths: ['.env'] } },
        },
      ],
      ['[permissions]', 'allow = ["Bash(cd *)", "Bash(pwd)"]', ''],
    )
    const t = await engineWith(
      [
        { blocks: [{ type: 'tool_use', name: 'Bash', input: { command: 'pwd' } }] },
        { blocks: [{ type: 'tool_use', name: 'Bash', input: { command: 'cd sub' } }] },
        { blocks: [{ type: 'text', text: 'moved' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go to sub' })
    await session.idle()
    // It only informs, so the call does not wait for it: wait for its record.
    await expect.poll(() => recorded(home, 'CwdChanged').length).toBe(1)
    expect(recorded(home, 'CwdChanged')[0]).toMatchObject({
      hook_event_name: 'CwdChanged',
      old_cwd: project,
      new_cwd: join(project, 'sub'),
    })
    await expect
      .poll(() => t.events(session, 'notice').map((event) => (event.type === 'notice' ? event.message : '')))
      .toContainEqual(expect.stringContaining('"hookSpecificOutput.watchPaths"'))
    await session.close()
    await t.engine.shutdown()
  })

  it('PreSkillShellCommand gets each embedded line of a command before it runs; a refused line is not run', async () => {
    const project = buggyProject()
    const home = recordingHome([{ event: 'PreSkillShellCommand', refuse: 'printenv' }])
    mkdirSync(join(home, 'config', 'commands'), { recursive: true })
    writeFileSync(
      join(home, 'config', 'commands', 'checkup.md'),
      [
        '---',
        'description: Checkup',
        'allowed-tools: Bash(echo *), Bash(printenv *)',
        '---',
        '- Greeting: !`echo hello-from-the-line`',
        '- Secrets: !`printenv HOME`',
        '',
      ].join('\n'),
    )
    const t = await engineWith(() => ({ blocks: [{ type: 'text', text: 'seen' }] }), home)
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'runCommand', name: 'checkup', args: '' })
    await t.waitFor(session, 'turnFinished')
    await session.idle()
    const lines = recorded(home, 'PreSkillShellCommand')
    expect(lines).toEqual([
      expect.objectContaining({
        hook_event_name: 'PreSkillShellCommand',
        tool_name: 'Bash',
        tool_input: { command: 'echo hello-from-the-line' },
        tool_use_id: expect.stringMatching(/^skill-shell-/),
        command_name: 'checkup',
        command_source: 'user',
        invoked_by: 'user',
      }),
      expect.objectContaining({ tool_input: { command: 'printenv HOME' } }),
    ])
    const sent = JSON.stringify(t.client.requests[0]?.messages)
    expect(sent).toContain('hello-from-the-line')
    expect(sent).toContain('[not run: blocked by hook: not allowed here]')
    expect(sent).not.toContain(home)
    const notices = t.events(session, 'notice').map((event) => (event.type === 'notice' ? event.message : ''))
    expect(notices).toContain('Not run in /checkup: printenv HOME (blocked by hook: not allowed here)')
    await session.close()
    await t.engine.shutdown()
  })

  it('a PreSkillShellCommand deny or rewrite keeps the line from running; continue: false drops the command', async () => {
    const project = buggyProject()
    const home = recordingHome([
      {
        event: 'PreSkillShellCommand',
        print: {
          hookSpecificOutput: {
            hookEventName: 'PreSkillShellCommand',
            permissionDecision: 'deny',
            permissionDecisionReason: 'no shell in commands',
          },
        },
      },
    ])
    mkdirSync(join(home, 'config', 'commands'), { recursive: true })
    writeFileSync(
      join(home, 'config', 'commands', 'touchy.md'),
      `---\ndescription: Touchy\nallowed-tools: Bash(touch *)\n---\nMade: !\`touch ${join(project, 'made')}\`\n`,
    )
    const t = await engineWith(() => ({ blocks: [{ type: 'text', text: 'seen' }] }), home)
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'runCommand', name: 'touchy', args: '' })
    await t.waitFor(session, 'turnFinished')
    await session.idle()
    expect(recorded(home, 'PreSkillShellCommand')).toHaveLength(1)
    expect(existsSync(join(project, 'made'))).toBe(false)
    expect(JSON.stringify(t.client.requests[0]?.messages)).toContain(
      '[not run: blocked by hook: no shell in commands]',
    )

    // `continue: false`: the command is dropped and no turn starts.
    writeFileSync(
      join(home, 'logs', 'PreSkillShellCommand.sh'),
      `#!/bin/sh\ncat >/dev/null\nprintf '%s' '{"continue":false,"stopReason":"commands are paused"}'\n`,
    )
    session.send({ type: 'runCommand', name: 'touchy', args: '' })
    await session.idle()
    expect(t.client.requests).toHaveLength(1)
    expect(existsSync(join(project, 'made'))).toBe(false)
    const notices = t.events(session, 'notice').map((event) => (event.type === 'notice' ? event.message : ''))
    expect(notices).toContain('/touchy was not run: commands are paused')
    await session.close()
    await t.engine.shutdown()
  })

  it('ConfigChange gets a changed settings file before /reload applies it; a block keeps the settings', async () => {
    const project = buggyProject()
    const home = recordingHome([{ event: 'ConfigChange', refuse: 'settings.local.toml' }])
    const t = await engineWith(() => ({ blocks: [{ type: 'text', text: 'ok' }] }), home)
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    const userFile = join(home, 'config', 'settings.toml')
    writeFileSync(userFile, `${readFileSync(userFile, 'utf8')}\n[agents]\nmax_turns = 7\n`)
    session.send({ type: 'runCommand', name: 'reload', args: '' })
    await session.idle()
    expect(recorded(home, 'ConfigChange')).toEqual([
      expect.objectContaining({
        hook_event_name: 'ConfigChange',
        source: 'user_settings',
        file_path: userFile,
      }),
    ])
    const said = () =>
      t.events(session, 'notice').map((event) => (event.type === 'notice' ? event.message : ''))
    expect(said()).toContain('Settings reloaded.')

    // A local settings file the hook refuses: the reload is kept out, with the hook's reason.
    const localFile = join(project, '.z-engine', 'settings.local.toml')
    mkdirSync(join(project, '.z-engine'), { recursive: true })
    writeFileSync(localFile, '[agents]\nmax_turns = 9\n')
    session.send({ type: 'runCommand', name: 'reload', args: '' })
    await session.idle()
    expect(recorded(home, 'ConfigChange')[1]).toMatchObject({
      source: 'local_settings',
      file_path: localFile,
    })
    expect(said().filter((message) => message === 'Settings reloaded.')).toHaveLength(1)
    expect(said()).toContainEqual(
      expect.stringContaining(
        `Settings not reloaded: a ConfigChange hook kept ${localFile} out: not allowed here`,
      ),
    )
    await session.close()
    await t.engine.shutdown()
  })

  it('FileChanged fires when a file its matcher names appears, changes and goes', async () => {
    const project = buggyProject()
    const home = recordingHome([{ event: 'FileChanged', matcher: '.envrc|.env' }])
    const t = await engineWith(() => ({ blocks: [{ type: 'text', text: 'ok' }] }), home)
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    await session.idle()
    const envrc = join(project, '.envrc')
    const seen = () => recorded(home, 'FileChanged').map((input) => `${input.event} ${input.file_path}`)
    writeFileSync(envrc, 'export A=1\n')
    await expect.poll(seen).toEqual([`add ${envrc}`])
    expect(recorded(home, 'FileChanged')[0]).toMatchObject({ hook_event_name: 'FileChanged', cwd: project })
    writeFileSync(envrc, 'export A=2\n')
    await expect.poll(seen).toEqual([`add ${envrc}`, `change ${envrc}`])
    rmSync(envrc)
    await expect.poll(seen).toEqual([`add ${envrc}`, `change ${envrc}`, `unlink ${envrc}`])
    await session.close()
    await t.engine.shutdown()
  })

  it('PermissionDenied (no auto-mode classifier here) is named when settings register it', async () => {
    const project = buggyProject()
    const home = recordingHome([{ event: 'PermissionDenied' }])
    const t = await engineWith(() => ({ blocks: [{ type: 'text', text: 'ok' }] }), home)
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    await session.idle()
    const notices = t.events(session, 'notice').map((event) => (event.type === 'notice' ? event.message : ''))
    expect(notices).toContainEqual(
      expect.stringMatching(/PermissionDenied never run: .*auto-mode classifier/),
    )
    await session.close()
    await t.engine.shutdown()
  })
})
