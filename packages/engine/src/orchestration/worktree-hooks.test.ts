/**
 * Issue 38: WorktreeCreate and WorktreeRemove hooks replace the engine's own `git worktree add` and
 * removal for worktree-isolated agents, as in Claude Code: real hook scripts (run confined, as every
 * hook) read Claude Code's stdin, make the worktree with git and print its path.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from '../../test/engine-harness.js'
import type { ModelRequest } from '../model/types.js'
import {
  agentInfos,
  call,
  changes,
  git,
  lastToolResult,
  perAgent,
  type Step,
  text,
  until,
  untilIdle,
} from './orchestration.test-util.js'

cleanupTempDirs()

/** A home whose WorktreeCreate/WorktreeRemove hooks log their stdin to `<home>/logs/<event>.jsonl`. */
function hookHome(scripts: { create: string; remove?: string }): string {
  const home = tempDir('ze-home-')
  mkdirSync(join(home, 'config'), { recursive: true })
  const logs = join(home, 'logs')
  mkdirSync(logs, { recursive: true })
  const toml: string[] = []
  for (const [event, body] of [
    ['WorktreeCreate', scripts.create],
    ['WorktreeRemove', scripts.remove],
  ] as const) {
    if (body === undefined) continue
    const hook = join(logs, `${event}.sh`)
    writeFileSync(
      hook,
      `#!/bin/sh\ninput=$(cat)\nprintf '%s\\n' "$input" >> '${join(logs, `${event}.jsonl`)}'\n${body}\n`,
    )
    chmodSync(hook, 0o755)
    toml.push(`[[hooks.${event}]]`, `command = "${hook}"`, '')
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

// The scaffolding real WorktreeCreate hooks do: a worktree on its own branch, progress on stderr,
// the path as the last stdout line.
const CREATE = [
  `name=$(printf '%s' "$input" | sed -n 's/.*"name":"\\([^"]*\\)".*/\\1/p')`,
  'dir="$CLAUDE_PROJECT_DIR/.hooked/$name"',
  'git -C "$CLAUDE_PROJECT_DIR" worktree add -q -b "hooked/$name" "$dir" >&2 || exit 1',
  'echo "scaffolded $name"',
  'echo "$dir"',
].join('\n')
const REMOVE = [
  `dir=$(printf '%s' "$input" | sed -n 's/.*"worktree_path":"\\([^"]*\\)".*/\\1/p')`,
  'git -C "$CLAUDE_PROJECT_DIR" worktree remove --force "$dir" >&2 || exit 1',
].join('\n')

const editInWorktree = (project: string): Step[] => {
  const root = (request: ModelRequest) =>
    /Working directory: (\S+)/.exec(request.system.map((section) => section.text).join('\n'))?.[1] ?? project
  return [
    (request) => call('Read', { file_path: join(root(request), 'math.js') }),
    (request) =>
      call('Edit', { file_path: join(root(request), 'math.js'), old_string: 'a - b', new_string: 'a + b' }),
    text('Fixed add in my worktree.'),
  ]
}

const spawnIsolated = call('Agent', {
  description: 'Fix add',
  prompt: 'Fix add.',
  subagent_type: 'general',
  isolation: 'worktree',
})

describe('WorktreeCreate and WorktreeRemove hooks', { timeout: 60_000 }, () => {
  it('the hook makes the worktree the agent works in; applying runs WorktreeRemove on its path', async () => {
    const project = buggyProject()
    const home = hookHome({ create: CREATE, remove: REMOVE })
    const seen: ModelRequest[] = []
    const script = perAgent({
      main: [
        spawnIsolated,
        (request) => {
          seen.push(request)
          const agentId = /agent_id: (\S+)/.exec(lastToolResult(request).text)?.[1]
          return call('ApplyAgentChanges', { agent_id: agentId })
        },
        text('Applied.'),
      ],
      general: editInWorktree(project),
    })
    const { engine, envelopes, events } = await engineWith(script, home)
    const session = await engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'acceptEdits',
    })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)

    const [created] = recorded(home, 'WorktreeCreate')
    const agentId = agentInfos(events(session)).at(-1)!.id
    expect(created).toMatchObject({ hook_event_name: 'WorktreeCreate', name: agentId, cwd: project })
    const hooked = join(project, '.hooked', agentId)
    expect(lastToolResult(seen[0]!).text).toContain(hooked)
    // The engine made no worktree of its own.
    expect(existsSync(join(project, '.z-engine', 'worktrees', agentId))).toBe(false)
    const states = changes(agentInfos(events(session)).map((info) => info.worktree.type))
    expect(states).toEqual(['active', 'pending', 'applied'])
    expect(
      agentInfos(events(session)).find((info) => info.worktree.type === 'pending')?.worktree,
    ).toMatchObject({
      path: hooked,
      branch: `hooked/${agentId}`,
      changedFiles: ['math.js'],
    })
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('a + b')
    expect(recorded(home, 'WorktreeRemove')).toEqual([
      expect.objectContaining({ hook_event_name: 'WorktreeRemove', worktree_path: hooked }),
    ])
    expect(existsSync(hooked)).toBe(false)
    await session.close()
  })

  it('a failing WorktreeCreate hook fails the launch with its stderr; nothing is made', async () => {
    const project = buggyProject()
    const home = hookHome({ create: 'echo "the worktree pool is full" >&2\nexit 1' })
    const seen: ModelRequest[] = []
    const script = perAgent({
      main: [
        spawnIsolated,
        (request) => {
          seen.push(request)
          return text('ok')
        },
      ],
    })
    const { engine, envelopes } = await engineWith(script, home)
    const session = await engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'acceptEdits',
    })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)
    const result = lastToolResult(seen[0]!)
    expect(result.isError).toBe(true)
    expect(result.text).toContain('WorktreeCreate hook failed')
    expect(result.text).toContain('the worktree pool is full')
    expect(existsSync(join(project, '.z-engine', 'worktrees'))).toBe(false)
    await session.close()
  })

  it('a printed folder that is not a worktree of the project on a branch is refused and handed to WorktreeRemove', async () => {
    const project = buggyProject()
    const home = hookHome({
      create: 'mkdir -p "$CLAUDE_PROJECT_DIR/plain"\necho "$CLAUDE_PROJECT_DIR/plain"',
      remove: 'exit 0',
    })
    const seen: ModelRequest[] = []
    const script = perAgent({
      main: [
        spawnIsolated,
        (request) => {
          seen.push(request)
          return text('ok')
        },
      ],
    })
    const { engine, envelopes } = await engineWith(script, home)
    const session = await engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'acceptEdits',
    })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)
    const result = lastToolResult(seen[0]!)
    expect(result.isError).toBe(true)
    expect(result.text).toContain(`${join(project, 'plain')} is inside the worktree`)
    expect(recorded(home, 'WorktreeRemove')).toEqual([
      expect.objectContaining({ worktree_path: join(project, 'plain') }),
    ])
    await session.close()
  })

  it('discard without a WorktreeRemove hook leaves the hook-made worktree and says so', async () => {
    const project = buggyProject()
    const home = hookHome({ create: CREATE })
    const script = perAgent({ main: [spawnIsolated, text('Pending.')], general: editInWorktree(project) })
    const { engine, envelopes, events } = await engineWith(script, home)
    const session = await engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'acceptEdits',
    })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)
    const agentId = agentInfos(events(session)).at(-1)!.id
    session.send({ type: 'discardAgentChanges', agentId })
    await until(() =>
      events(session, 'notice').some(
        (event) => event.type === 'notice' && /Could not discard/.test(event.message),
      ),
    )
    const said = events(session, 'notice').flatMap((event) =>
      event.type === 'notice' ? [event.message] : [],
    )
    expect(said.join('\n')).toContain('no WorktreeRemove hook is configured')
    expect(existsSync(join(project, '.hooked', agentId))).toBe(true)
    expect(git(project, 'branch', '--list', `hooked/${agentId}`)).toContain(`hooked/${agentId}`)
    await session.close()
  })
})
