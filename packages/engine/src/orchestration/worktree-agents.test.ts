import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith } from '../../test/engine-harness.js'
import { coreOf } from '../api/engine.js'
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

describe('worktree agents', () => {
  const editInWorktree = (project: string): Step[] => [
    (request) => {
      const root = /Working directory: (\S+)/.exec(
        request.system.map((section) => section.text).join('\n'),
      )?.[1]
      return call('Read', { file_path: join(root ?? project, 'math.js') })
    },
    (request) => {
      const root = /Working directory: (\S+)/.exec(
        request.system.map((section) => section.text).join('\n'),
      )?.[1]
      return call('Edit', {
        file_path: join(root ?? project, 'math.js'),
        old_string: 'a - b',
        new_string: 'a + b',
      })
    },
    text('Fixed add in my worktree.'),
  ]

  it('edits in its own worktree, leaves the project untouched, then ApplyAgentChanges merges it', async () => {
    const project = buggyProject()
    const applied: ModelRequest[] = []
    const script = perAgent({
      main: [
        call('Agent', {
          description: 'Fix add',
          prompt: 'Fix add.',
          subagent_type: 'general',
          isolation: 'worktree',
        }),
        (request) => {
          applied.push(request)
          const agentId = /agent_id: (\S+)/.exec(lastToolResult(request).text)?.[1]
          expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('a - b')
          return call('ApplyAgentChanges', { agent_id: agentId })
        },
        (request) => {
          applied.push(request)
          return text('Applied.')
        },
      ],
      general: editInWorktree(project),
    })
    const { engine, envelopes, events } = await engineWith(script)
    const session = await engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'acceptEdits',
    })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)

    const agentResult = lastToolResult(applied[0]!)
    expect(agentResult.text).toMatch(/Its changes are in the worktree .*\.z-engine\/worktrees\/agent_/)
    expect(agentResult.text).toContain('ApplyAgentChanges')
    const applyResult = lastToolResult(applied[1]!)
    expect(applyResult.isError).toBe(false)
    expect(applyResult.text).toContain(join(project, 'math.js'))
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('a + b')
    const states = changes(agentInfos(events(session)).map((info) => info.worktree.type))
    expect(states).toEqual(['active', 'pending', 'applied'])
    // Applied: the worktree and its branch are gone, the user's branch and index untouched.
    expect(git(project, 'branch', '--list', 'zengine/*')).toBe('')
    expect(git(project, 'rev-parse', '--abbrev-ref', 'HEAD')).toMatch(/^(main|master)$/)
    expect(git(project, 'diff', '--cached', '--name-only')).toBe('')
    await session.close()
  })

  it('applies from the GUI command and tells the model the files changed', async () => {
    const project = buggyProject()
    const script = perAgent({
      main: [
        call('Agent', {
          description: 'Fix add',
          prompt: 'Fix add.',
          subagent_type: 'general',
          isolation: 'worktree',
        }),
        text('Pending.'),
      ],
      general: editInWorktree(project),
    })
    const { engine, envelopes, events } = await engineWith(script)
    const session = await engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'acceptEdits',
    })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)
    const agentId = agentInfos(events(session)).at(-1)!.id
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('a - b')
    session.send({ type: 'applyAgentChanges', agentId })
    await until(() => agentInfos(events(session)).at(-1)!.worktree.type === 'applied')
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('a + b')
    expect(coreOf(session).state.reminders.join('\n')).toContain(join(project, 'math.js'))
    await session.close()
  })

  it('keeps a pending worktree across a chat reopen: it can still be applied', async () => {
    const project = buggyProject()
    const script = perAgent({
      main: [
        call('Agent', {
          description: 'Fix add',
          prompt: 'Fix add.',
          subagent_type: 'general',
          isolation: 'worktree',
        }),
        text('Pending.'),
      ],
      general: editInWorktree(project),
    })
    const { engine, envelopes, events } = await engineWith(script)
    const first = await engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'acceptEdits' })
    first.send({ type: 'submit', text: 'go' })
    await untilIdle(first, envelopes)
    const agentId = agentInfos(events(first)).at(-1)!.id
    await first.close()

    const second = await engine.openSession({ projectRoot: project, resume: first.id })
    const seen = events(second).length
    second.send({ type: 'applyAgentChanges', agentId })
    await until(() => agentInfos(events(second).slice(seen)).some((info) => info.worktree.type === 'applied'))
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('a + b')
    expect(git(project, 'branch', '--list', 'zengine/*')).toBe('')
    await second.close()
  })

  it('reports a conflicting change as conflicted and leaves the project untouched; discard removes worktree and branch', async () => {
    const project = buggyProject()
    const script = perAgent({
      main: [
        call('Agent', {
          description: 'Fix add',
          prompt: 'Fix add.',
          subagent_type: 'general',
          isolation: 'worktree',
        }),
        text('The agent has pending changes.'),
      ],
      general: editInWorktree(project),
    })
    const { engine, envelopes, events } = await engineWith(script)
    const session = await engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'acceptEdits',
    })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)
    const pending = agentInfos(events(session)).at(-1)!
    expect(pending.worktree).toMatchObject({ type: 'pending', changedFiles: ['math.js'] })
    if (pending.worktree.type !== 'pending') throw new Error('expected pending')
    const worktreePath = pending.worktree.path

    // The user changes the same line meanwhile.
    const mine = 'export function add(a, b) {\n  return b - a\n}\n'
    writeFileSync(join(project, 'math.js'), mine)
    session.send({ type: 'applyAgentChanges', agentId: pending.id })
    await until(() => agentInfos(events(session)).at(-1)!.worktree.type === 'conflicted')
    expect(agentInfos(events(session)).at(-1)!.worktree).toEqual({
      type: 'conflicted',
      conflicts: ['math.js'],
      path: worktreePath,
      branch: `zengine/${pending.id}`,
    })
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toBe(mine)
    expect(
      events(session, 'notice').some((event) => event.type === 'notice' && /conflict/.test(event.message)),
    ).toBe(true)

    session.send({ type: 'discardAgentChanges', agentId: pending.id })
    await until(() => agentInfos(events(session)).at(-1)!.worktree.type === 'discarded')
    expect(agentInfos(events(session)).at(-1)!.worktree).toEqual({ type: 'discarded' })
    expect(existsSync(worktreePath)).toBe(false)
    expect(git(project, 'branch', '--list', 'zengine/*')).toBe('')
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toBe(mine)
    await session.close()
  })

  it('falls back to the shared folder with a notice outside a git repository (spec 003)', async () => {
    const project = buggyProject()
    execFileSync('rm', ['-rf', join(project, '.git')])
    const results: ModelRequest[] = []
    const script = perAgent({
      main: [
        call('Agent', {
          description: 'Fix add',
          prompt: 'Fix add.',
          subagent_type: 'general',
          isolation: 'worktree',
        }),
        (request) => {
          results.push(request)
          return text('ok')
        },
      ],
    })
    const { engine, envelopes } = await engineWith(script)
    const session = await engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'acceptEdits',
    })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)
    const result = lastToolResult(results[0]!)
    expect(result.text).not.toMatch(/not in a git repository/)
    const notices = envelopes.flatMap((envelope) =>
      envelope.event.type === 'notice' ? [envelope.event] : [],
    )
    expect(notices).toContainEqual(expect.objectContaining({ code: 'agent_worktree_unavailable' }))
    await session.close()
  })
})
