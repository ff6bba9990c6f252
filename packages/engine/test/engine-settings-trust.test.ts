/**
 * Spec 000 "Tool batch" (AllowProject persists the rule to .z-engine/settings.local.toml) and
 * "Workspace trust" (an untrusted project's layers may only restrict), proved on a real Engine with
 * real settings files, the real policy and real tools; the model is the only script.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EngineEvent } from '@z-engine/protocol'
import { parse } from 'smol-toml'
import { describe, expect, it } from 'vitest'
import type { Session } from '../src/index.js'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

const LOCAL_SETTINGS = `# My local settings for this checkout. Keep this comment.
[model]
effort = "low" # an inline comment that must survive

[permissions]
# Rules I wrote by hand.
deny = ["Bash(rm -rf:*)"]

[context]
repo_map = false
`

type Approval = Extract<EngineEvent, { type: 'approvalRequested' }>

/** Answers approvals of a session as they come, with `decide`, until its next turn finishes. */
async function answerUntilFinished(
  t: Awaited<ReturnType<typeof engineWith>>,
  session: Session,
  decide: (event: Approval) => Parameters<Session['send']>[0] | undefined,
  turn = 1,
): Promise<Approval[]> {
  const seen: Approval[] = []
  for (;;) {
    for (const event of t.events(session, 'approvalRequested') as Approval[]) {
      if (seen.includes(event)) continue
      seen.push(event)
      const command = decide(event)
      if (command) session.send(command)
    }
    if (t.events(session, 'turnFinished').length >= turn) return seen
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/** Each tool's final status (a denied call finishes before an allowed one runs). */
const statuses = (events: EngineEvent[]) =>
  Object.fromEntries(
    events.flatMap((event) => (event.type === 'toolFinished' ? [[event.toolName, event.status]] : [])),
  )

const bash = (command: string) => ({
  type: 'tool_use' as const,
  name: 'Bash',
  input: { command, description: 'Run it' },
})

describe('AllowProject (spec 000 "Tool batch")', () => {
  it('AllowProject persists the rule to settings.local.toml, keeping its comments and other keys, and a second session runs the command without asking', async () => {
    const project = buggyProject()
    mkdirSync(join(project, '.z-engine'))
    const file = join(project, '.z-engine', 'settings.local.toml')
    writeFileSync(file, LOCAL_SETTINGS)
    const script = () => [
      { blocks: [bash('node test.js --label one')] },
      { blocks: [{ type: 'text' as const, text: 'Ran it.' }] },
    ]
    const t = await engineWith(script())
    await t.engine.trustWorkspace(project)
    const first = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    expect(first.mode).toBe('default')
    first.send({ type: 'submit', text: 'Run the tests.' })
    const asked = await answerUntilFinished(t, first, (event) => ({
      type: 'resolveApproval',
      approvalId: event.request.id,
      decision: { type: 'allowProject', rule: event.request.suggestion!.rule },
    }))
    expect(asked).toHaveLength(1)
    const suggestion = asked[0]!.request.suggestion
    expect(suggestion).toMatchObject({ scope: 'project' })
    expect(suggestion!.rule).toMatch(/^Bash\(node/)
    // It ran: the test still fails (exit 1), and the model saw why.
    expect(t.events(first, 'toolFinished')).toMatchObject([{ toolName: 'Bash', status: 'error' }])
    expect(JSON.stringify(t.client.requests[1]!.messages.at(-1))).toContain('FAIL: add(2, 3) = -1')

    // The file gained the rule and lost nothing: every original line is still there, in order.
    const text = readFileSync(file, 'utf8')
    const kept = LOCAL_SETTINGS.split('\n').filter((line) => line.trim() !== '')
    let from = 0
    for (const line of kept) {
      const at = text.indexOf(line, from)
      expect(at, `kept line: ${line}`).toBeGreaterThanOrEqual(0)
      from = at + line.length
    }
    expect(parse(text)).toEqual({
      model: { effort: 'low' },
      permissions: { deny: ['Bash(rm -rf:*)'], allow: [suggestion!.rule] },
      context: { repo_map: false },
    })
    await t.engine.shutdown()

    // A second session (a new engine, same project and config) runs the same command without asking.
    const second = await engineWith(script(), t.home)
    const again = await second.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    again.send({ type: 'submit', text: 'Run the tests again.' })
    await second.waitFor(again, 'turnFinished')
    expect(second.events(again, 'approvalRequested')).toEqual([])
    expect(second.events(again, 'toolFinished')).toMatchObject([{ toolName: 'Bash', status: 'error' }])
    expect(JSON.stringify(second.client.requests[1]!.messages.at(-1))).toContain('FAIL: add(2, 3) = -1')
    await second.engine.shutdown()
  })

  it("in an untrusted workspace a rule saved with AllowProject goes to the user's own config for that folder, and the next session honours it", async () => {
    const project = buggyProject()
    const script = () => [
      { blocks: [bash('node test.js --label two')] },
      { blocks: [{ type: 'text' as const, text: 'Ran it.' }] },
    ]
    const t = await engineWith(script())
    const first = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    expect(t.events(first, 'trustRequired')).toEqual([])
    first.send({ type: 'submit', text: 'Run the tests.' })
    const asked = await answerUntilFinished(t, first, (event) => ({
      type: 'resolveApproval',
      approvalId: event.request.id,
      decision: { type: 'allowProject', rule: event.request.suggestion!.rule },
    }))
    const rule = asked[0]!.request.suggestion!.rule
    // Not the trust-gated settings.local.toml (a checkout could ship one): the user's config folder.
    expect(existsSync(join(project, '.z-engine', 'settings.local.toml'))).toBe(false)
    const saved = readdirSync(join(t.home, 'config', 'projects'))
    expect(saved).toHaveLength(1)
    expect(parse(readFileSync(join(t.home, 'config', 'projects', saved[0]!), 'utf8'))).toEqual({
      permissions: { allow: [rule] },
    })
    await t.engine.shutdown()

    const second = await engineWith(script(), t.home)
    const again = await second.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    expect(second.events(again, 'trustRequired')).toEqual([])
    again.send({ type: 'submit', text: 'Run the tests again.' })
    const askedAgain = await answerUntilFinished(second, again, (event) => ({
      type: 'resolveApproval',
      approvalId: event.request.id,
      decision: { type: 'deny' },
    }))
    expect(askedAgain).toEqual([])
    await second.engine.shutdown()
  })
})

describe('"always" for a compound line', () => {
  it('grants a rule for every command of the line, so the same line later runs without asking', async () => {
    const project = buggyProject()
    const line = 'node test.js --label one; git add test.js'
    const t = await engineWith([
      { blocks: [bash(line)] },
      { blocks: [bash(line)] },
      { blocks: [{ type: 'text' as const, text: 'Ran it twice.' }] },
    ])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Run the tests twice.' })
    const asked = await answerUntilFinished(t, session, (event) => ({
      type: 'resolveApproval',
      approvalId: event.request.id,
      decision: { type: 'allowSession', rule: event.request.suggestion!.rule },
    }))
    expect(asked.map((event) => event.request.suggestion)).toEqual([
      {
        rule: 'Bash(node test.js --label one)',
        rules: ['Bash(node test.js --label one)', 'Bash(git add:*)'],
        scope: 'project',
      },
    ])
    expect(t.events(session, 'toolFinished')).toHaveLength(2)
    await t.engine.shutdown()
  })
})

describe('workspace trust (spec 000 "Workspace trust")', () => {
  it("an untrusted project's settings cannot loosen policy; once trusted, a new session honours them", async () => {
    const project = buggyProject()
    const outside = tempDir('ze-extra-')
    writeFileSync(join(project, 'junk.txt'), 'junk\n')
    writeFileSync(join(project, 'secret.txt'), 'hunter2\n')
    mkdirSync(join(project, '.z-engine'))
    writeFileSync(
      join(project, '.z-engine', 'settings.toml'),
      `[permissions]
mode = "bypass"
allow = ["Bash(rm:*)"]
deny = ["Read(secret.txt)"]
additional_directories = ["${outside}"]

[[hooks.PreToolUse]]
matcher = "Bash"
command = "touch hook-ran"
`,
    )
    const script = () => [
      {
        blocks: [
          bash('rm junk.txt'),
          { type: 'tool_use' as const, name: 'Read', input: { file_path: join(project, 'secret.txt') } },
        ],
      },
      { blocks: [{ type: 'text' as const, text: 'Done.' }] },
    ]

    const t = await engineWith(script())
    const untrusted = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    expect(untrusted.mode).toBe('default')
    const required = t.events(untrusted, 'trustRequired')
    expect(required).toHaveLength(1)
    expect(required[0]).toMatchObject({ projectRoot: project })
    expect(required[0]!.type === 'trustRequired' && [...required[0]!.categories].sort()).toEqual(
      ['hooks', 'permissions.additional_directories', 'permissions.allow', 'permissions.default_mode'].sort(),
    )
    untrusted.send({ type: 'submit', text: 'Clean up and read the secret.' })
    const asked = await answerUntilFinished(t, untrusted, (event) => ({
      type: 'resolveApproval',
      approvalId: event.request.id,
      decision: { type: 'deny', feedback: 'not in an untrusted checkout' },
    }))
    // The project's allow rule and mode are withheld: rm asks. Its deny rule applies: no ask, denied.
    expect(asked.map((event) => event.request.toolName)).toEqual(['Bash'])
    expect(statuses(t.events(untrusted, 'toolFinished'))).toEqual({ Bash: 'denied', Read: 'denied' })
    expect(existsSync(join(project, 'junk.txt'))).toBe(true)
    expect(existsSync(join(project, 'hook-ran'))).toBe(false)
    const results = JSON.stringify(t.client.requests[1]!.messages.at(-1))
    expect(results).not.toContain('hunter2')
    expect(results).toContain('not in an untrusted checkout')
    // The additional directory is withheld too: the environment the model sees does not list it.
    expect(JSON.stringify(t.client.requests[0]!.system)).not.toContain(outside)
    await t.engine.shutdown()

    // Trust the workspace; a new session honours the project's settings in full.
    const after = await engineWith(script(), t.home)
    await after.engine.trustWorkspace(project)
    const trusted = await after.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    expect(trusted.mode).toBe('bypass')
    expect(after.events(trusted, 'trustRequired')).toEqual([])
    trusted.send({ type: 'submit', text: 'Clean up and read the secret.' })
    await after.waitFor(trusted, 'turnFinished')
    expect(after.events(trusted, 'approvalRequested')).toEqual([])
    // Deny rules win over everything, even bypass.
    expect(statuses(after.events(trusted, 'toolFinished'))).toEqual({ Bash: 'ok', Read: 'denied' })
    expect(existsSync(join(project, 'junk.txt'))).toBe(false)
    expect(existsSync(join(project, 'hook-ran'))).toBe(true)
    expect(JSON.stringify(after.client.requests[1]!.messages.at(-1))).not.toContain('hunter2')
    expect(JSON.stringify(after.client.requests[0]!.system)).toContain(outside)
    await after.engine.shutdown()
  })
})
