/**
 * Scenario tests of spec 000 "Tool batch", "Stop boundary", "Hooks" and "Persistence" on a real
 * Engine: real settings files, real hook scripts run by /bin/sh, real tools, the real store on disk.
 * The model is the only script.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EngineEvent, Message } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import type { Session } from '../src/index.js'
import { buggyProject, cleanupTempDirs, engineWith as harnessEngineWith, tempDir } from './engine-harness.js'
import { cleanupServers, eventHelpers, sdkEngine, WIRE_MODELS } from './engine-sdk-harness.js'

cleanupTempDirs()
cleanupServers()

/**
 * The harness's engine without the repository map: these scenarios assert the exact blocks a
 * request carries, and a map that is built after the first request joins the next one as a
 * reminder, sooner or later depending on the machine's load.
 */
const engineWith: typeof harnessEngineWith = (script, home, extra = {}) =>
  harnessEngineWith(script, home, { settings: { context: { repo_map: false } }, ...extra })

/** A home whose user settings file holds `toml` (the user layer is never trust-gated). */
function homeWithSettings(toml: string): string {
  const home = tempDir('ze-home-')
  mkdirSync(join(home, 'config'), { recursive: true })
  writeFileSync(join(home, 'config', 'settings.toml'), toml)
  return home
}

/** User settings that make `dir` writable for confined commands and hooks. */
const writable = (dir: string) => `[shell.sandbox]\nwrite_paths = [${JSON.stringify(dir)}]\n`

/** Whether a process whose command line holds `marker` is alive on this machine. */
function running(marker: string): boolean {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .some((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker) && alive(Number(pid))
      } catch {
        return false
      }
    })
}

/** An executable shell script in `dir`. */
function script(dir: string, name: string, body: string): string {
  const path = join(dir, name)
  writeFileSync(path, `#!/bin/sh\n${body}`)
  chmodSync(path, 0o755)
  return path
}

/** Whether a process still runs (a zombie waiting for a container's init to reap it does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return false
  }
}

const textOf = (message: Message | undefined) => JSON.stringify(message?.content ?? [])

/** Every tool_use of an assistant message is answered once, in call order, by the next message. */
function expectPaired(messages: readonly Message[]): void {
  messages.forEach((message, index) => {
    const calls = message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []))
    if (message.role !== 'assistant' || calls.length === 0) return
    const results = (messages[index + 1]?.content ?? []).flatMap((block) =>
      block.type === 'tool_result' ? [block.toolUseId] : [],
    )
    expect(results).toEqual(calls)
  })
}

describe('scenarios on a real engine (spec 000 "Tool batch", "Stop boundary", "Persistence")', () => {
  it('Deny returns "The user denied this action" plus the user\'s feedback to the model, and the edit is not made', async () => {
    const project = buggyProject()
    const t = await engineWith([
      { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } }] },
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'Edit',
            input: { file_path: join(project, 'math.js'), old_string: 'a - b', new_string: 'b + a' },
          },
        ],
      },
      { blocks: [{ type: 'text', text: 'Understood, I will write a + b.' }] },
    ])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Fix add.' })
    const ask = await t.waitFor(session, 'approvalRequested')
    if (ask.type !== 'approvalRequested') throw new Error('unexpected')
    expect(ask.request.toolName).toBe('Edit')
    session.send({
      type: 'resolveApproval',
      approvalId: ask.request.id,
      decision: { type: 'deny', feedback: 'write it as a + b, not b + a' },
    })
    await t.waitFor(session, 'turnFinished')
    expect(t.events(session, 'toolFinished').at(-1)).toMatchObject({ toolName: 'Edit', status: 'denied' })
    const results = t.client.requests[2]!.messages.at(-1)!
    expect(results.content).toMatchObject([
      {
        type: 'tool_result',
        isError: true,
        content: [
          {
            type: 'text',
            text: 'The user denied this action. Feedback from the user: write it as a + b, not b + a',
          },
        ],
      },
    ])
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('a - b')
    await t.engine.shutdown()
  })

  it('a PreToolUse hook (a shell script configured in settings TOML) rewrites the input with updatedInput', async () => {
    const project = buggyProject()
    const hooks = tempDir('ze-hooks-')
    const seen = join(hooks, 'stdin.json')
    const hook = script(
      hooks,
      'rewrite.sh',
      `cat > ${seen}
printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"rewritten by policy","updatedInput":{"command":"echo rewritten-by-hook","description":"Rewritten"}}}'
`,
    )
    // The hook writes beside itself: a folder the user's settings make writable (hooks run confined).
    const home = homeWithSettings(
      `[[hooks.PreToolUse]]\nmatcher = "Bash"\ncommand = "${hook}"\n${writable(hooks)}`,
    )
    const t = await engineWith(
      [
        {
          blocks: [
            { type: 'tool_use', name: 'Bash', input: { command: 'echo original', description: 'Echo' } },
          ],
        },
        { blocks: [{ type: 'text', text: 'ok' }] },
      ],
      home,
    )
    // Default mode: the hook's permissionDecision allows the rewritten command without asking.
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Echo something.' })
    await t.waitFor(session, 'turnFinished')
    expect(t.events(session, 'approvalRequested')).toEqual([])
    const stdin = JSON.parse(readFileSync(seen, 'utf8'))
    expect(stdin).toMatchObject({
      session_id: session.id,
      cwd: project,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'echo original' },
    })
    expect(stdin.transcript_path).toContain(session.id)
    const result = textOf(t.client.requests[1]!.messages.at(-1))
    expect(result).toContain('rewritten-by-hook')
    expect(result).not.toContain('original')
    expect(t.events(session, 'toolStarted')).toMatchObject([{ input: { command: 'echo rewritten-by-hook' } }])
    await t.engine.shutdown()
  })

  it('Stop hooks (a real script exiting 2) continue the run at most 5 times a turn', async () => {
    const project = buggyProject()
    const hooks = tempDir('ze-hooks-')
    const calls = join(hooks, 'calls.jsonl')
    const hook = script(
      hooks,
      'stop.sh',
      `cat >> ${calls}\necho >> ${calls}\necho 'run the tests first' >&2\nexit 2\n`,
    )
    const home = homeWithSettings(`[[hooks.Stop]]\ncommand = "${hook}"\n${writable(hooks)}`)
    const t = await engineWith(
      (_request, index) => ({ blocks: [{ type: 'text', text: `answer ${index}` }] }),
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Finish.' })
    const finished = await t.waitFor(session, 'turnFinished')
    expect(finished).toMatchObject({ outcome: { type: 'done' } })
    // The first answer plus five continuations.
    expect(t.client.requests).toHaveLength(6)
    for (const request of t.client.requests.slice(1))
      expect(textOf(request.messages.at(-1))).toContain('run the tests first')
    const stdins = readFileSync(calls, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line))
    // Once the cap is reached the hook is not run again this turn.
    expect(stdins).toHaveLength(5)
    expect(stdins[0]).toMatchObject({ hook_event_name: 'Stop', stop_hook_active: false })
    expect(stdins[1]).toMatchObject({ stop_hook_active: true })
    await t.engine.shutdown()
  })

  it('a hook that outlives timeout_secs is killed with its process group, warns, and the call goes on', async () => {
    const project = buggyProject()
    const hooks = tempDir('ze-hooks-')
    const marker = `ze-hook-grandchild-${process.pid}-${Date.now()}`
    // The hook starts a grandchild (in its process group, named by the marker) and then hangs.
    const hook = script(hooks, 'slow.sh', `sh -c 'sleep 300; :' ${marker} &\nwait\n`)
    // Two seconds: time for the hook to start its grandchild on a loaded machine.
    const home = homeWithSettings(`[[hooks.PreToolUse]]\ncommand = "${hook}"\ntimeout_secs = 2\n`)
    const t = await engineWith(
      [
        { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } }] },
        { blocks: [{ type: 'text', text: 'ok' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    const started = Date.now()
    session.send({ type: 'submit', text: 'Read it.' })
    await t.waitFor(session, 'turnFinished')
    const elapsed = Date.now() - started
    expect(elapsed).toBeGreaterThanOrEqual(1_900)
    // At the timeout, not when the grandchild ends (300 s): this bound leaves a loaded machine a minute.
    expect(elapsed).toBeLessThan(60_000)
    expect(t.events(session, 'toolFinished')).toMatchObject([{ toolName: 'Read', status: 'ok' }])
    const warnings = t
      .events(session, 'notice')
      .filter((event) => event.type === 'notice' && event.level === 'warning')
    expect(JSON.stringify(warnings)).toContain('timed out after 2s and was stopped')
    // A killed process dies when next scheduled, which a loaded machine may delay. (A confined
    // hook has its own pid namespace: the marker, not a pid it reports, finds the grandchild.)
    await expect.poll(() => running(marker), { timeout: 30_000 }).toBe(false)
    await t.engine.shutdown()
  })

  it('a UserPromptSubmit hook exiting 2 blocks the prompt with its stderr, before the model is asked', async () => {
    const project = buggyProject()
    const hooks = tempDir('ze-hooks-')
    const hook = script(
      hooks,
      'gate.sh',
      `if grep -q secret; then echo 'no secrets in prompts' >&2; exit 2; fi\n`,
    )
    const home = homeWithSettings(`[[hooks.UserPromptSubmit]]\ncommand = "${hook}"\n`)
    const t = await engineWith([{ blocks: [{ type: 'text', text: 'fine' }] }], home)
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'here is my secret' })
    const blocked = await t.waitFor(session, 'turnFinished')
    expect(blocked).toMatchObject({
      outcome: {
        type: 'failed',
        error: { code: 'prompt_blocked', message: expect.stringContaining('no secrets in prompts') },
      },
    })
    expect(t.client.requests).toHaveLength(0)
    session.send({ type: 'submit', text: 'an ordinary prompt' })
    expect(await t.waitFor(session, 'turnFinished', 2)).toMatchObject({ outcome: { type: 'done' } })
    expect(JSON.stringify(t.client.requests[0]!.messages)).not.toContain('my secret')
    await t.engine.shutdown()
  })

  it('cancel mid-tool kills the running command and leaves a valid transcript on disk ("cancelled by user" for every call)', async () => {
    const project = buggyProject()
    const pidFile = join(project, 'sleeper.pid')
    const t = await engineWith([
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'Bash',
            input: { command: `echo $$ > ${pidFile}; exec sleep 300`, description: 'Slow' },
          },
          { type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } },
        ],
      },
      { blocks: [{ type: 'text', text: 'Back again.' }] },
    ])
    const session = await t.engine.openSession({ projectRoot: project, mode: 'bypass', model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Run the slow job.' })
    await t.waitFor(session, 'toolStarted')
    await expect
      .poll(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), { timeout: 30_000 })
      .toBe(true)
    const pid = Number(readFileSync(pidFile, 'utf8').trim())
    const started = Date.now()
    session.send({ type: 'cancel' })
    const finished = await t.waitFor(session, 'turnFinished')
    expect(finished).toMatchObject({ outcome: { type: 'cancelled' } })
    // Not when the command ends (300 s): this bound leaves a loaded machine a minute.
    expect(Date.now() - started).toBeLessThan(60_000)
    // The command's process is gone (signal 0 only probes; a killed process dies when next scheduled).
    await expect.poll(() => alive(pid), { timeout: 30_000 }).toBe(false)

    const replayed = await t.engine.store.replay(session.id)
    if (!replayed.ok) throw new Error(replayed.error.message)
    const { snapshot } = replayed.value
    expect(snapshot.turns).toMatchObject([{ interrupted: false, outcome: { type: 'cancelled' } }])
    expectPaired(snapshot.workingSet)
    const results = snapshot.workingSet.at(-1)!.content
    expect(results.map((block) => (block.type === 'tool_result' ? block.content : undefined))).toEqual([
      [{ type: 'text', text: 'cancelled by user' }],
      [{ type: 'text', text: 'cancelled by user' }],
    ])
    session.send({ type: 'submit', text: 'Hello?' })
    await t.waitFor(session, 'turnFinished', 2)
    expectPaired(t.client.requests[1]!.messages)
    await t.engine.shutdown()
  })

  it('two sessions in one process run concurrently without interfering (separate logs, cwd and policies)', async () => {
    const a = buggyProject()
    const b = buggyProject()
    const t = await engineWith((request) => {
      const first = JSON.stringify(request.messages[0])
      const name = first.includes('session A') ? 'a' : 'b'
      return request.messages.length === 1
        ? {
            blocks: [
              {
                type: 'tool_use',
                name: 'Bash',
                input: { command: `sleep 0.4; pwd; touch made-by-${name}`, description: 'Where am I' },
              },
            ],
          }
        : { blocks: [{ type: 'text', text: `session ${name.toUpperCase()} finished` }] }
    })
    const sa = await t.engine.openSession({ projectRoot: a, model: 'scripted:x' })
    const sb = await t.engine.openSession({ projectRoot: b, model: 'scripted:x', mode: 'bypass' })
    sa.send({ type: 'submit', text: 'This is session A.' })
    sb.send({ type: 'submit', text: 'This is session B.' })
    // A's policy asks (default mode) while B's runs without asking (bypass), at the same time.
    const ask = await t.waitFor(sa, 'approvalRequested')
    await t.waitFor(sb, 'toolStarted')
    if (ask.type !== 'approvalRequested') throw new Error('unexpected')
    sa.send({ type: 'resolveApproval', approvalId: ask.request.id, decision: { type: 'allowOnce' } })
    await Promise.all([t.waitFor(sa, 'turnFinished'), t.waitFor(sb, 'turnFinished')])
    expect(t.events(sb, 'approvalRequested')).toEqual([])
    // Each ran in its own project.
    expect(existsSync(join(a, 'made-by-a'))).toBe(true)
    expect(existsSync(join(b, 'made-by-b'))).toBe(true)
    expect(existsSync(join(a, 'made-by-b')) || existsSync(join(b, 'made-by-a'))).toBe(false)
    // Separate logs: each replay holds only its own conversation, with its own cwd in the result.
    for (const [session, own, other, root] of [
      [sa, 'session A', 'session B', a],
      [sb, 'session B', 'session A', b],
    ] as const) {
      const replayed = await t.engine.store.replay(session.id)
      if (!replayed.ok) throw new Error(replayed.error.message)
      const text = JSON.stringify(replayed.value.snapshot.workingSet)
      expect(text).toContain(own)
      expect(text).not.toContain(other)
      expect(text).toContain(root)
      expect(replayed.value.snapshot.mode).toBe(session === sa ? 'default' : 'bypass')
    }
    await t.engine.shutdown()
  })

  it('a context overflow from the provider forces relief (a summary) and exactly one retry', async () => {
    const project = buggyProject()
    const read = { type: 'tool_use' as const, name: 'Read', input: { file_path: join(project, 'math.js') } }
    const t = await sdkEngine([
      { blocks: [{ type: 'text', text: 'First answer.' }] },
      { blocks: [read] },
      { blocks: [read] },
      { fault: { type: 'context_overflow' } },
      { blocks: [{ type: 'text', text: 'SUMMARY: the user asked twice; add subtracts.' }] },
      { blocks: [{ type: 'text', text: 'Answer after the summary.' }] },
      { blocks: [{ type: 'text', text: 'Third turn.' }] },
      { fault: { type: 'context_overflow' } },
      { blocks: [{ type: 'text', text: 'SUMMARY again.' }] },
      { fault: { type: 'context_overflow' } },
    ])
    const session = await t.engine.openSession({
      projectRoot: project,
      mode: 'bypass',
      model: WIRE_MODELS.anthropic,
    })
    // Long enough that the summary shrinks the context (a summary that does not is not applied).
    session.send({ type: 'submit', text: `Turn one. ${'Some context about the bug. '.repeat(200)}` })
    await t.waitFor(session, 'turnFinished', 1)
    session.send({ type: 'submit', text: 'Turn two.' })
    const second = await t.waitFor(session, 'turnFinished', 2)
    expect(second).toMatchObject({ outcome: { type: 'done' } })
    expect(t.events(session, 'compacted')).toHaveLength(1)
    const retried = t.server.requests[5]!.body.messages as unknown[]
    expect(JSON.stringify(retried)).toContain('SUMMARY: the user asked twice')
    expect(retried.length).toBeLessThan((t.server.requests[3]!.body.messages as unknown[]).length)

    session.send({ type: 'submit', text: 'Turn three.' })
    await t.waitFor(session, 'turnFinished', 3)
    session.send({ type: 'submit', text: 'Turn four.' })
    const fourth = await t.waitFor(session, 'turnFinished', 4)
    // Overflow, relief, retry, overflow again: the turn fails instead of looping.
    expect(fourth).toMatchObject({ outcome: { type: 'failed' } })
    expect(t.server.requests).toHaveLength(10)
    await t.engine.shutdown()
  })

  it('steering (or a submit) that arrives while the final answer streams continues the same turn at the stop boundary', async () => {
    const project = buggyProject()
    const t = await sdkEngine(
      [
        { blocks: [{ type: 'text', text: 'A long final answer. '.repeat(60) }] },
        { blocks: [{ type: 'text', text: 'Also done with the README.' }] },
      ],
      { chunkDelayMs: 5 },
    )
    const session = await t.engine.openSession({
      projectRoot: project,
      mode: 'bypass',
      model: WIRE_MODELS.anthropic,
    })
    session.send({ type: 'submit', text: 'Explain math.js.' })
    await t.waitFor(session, 'textDelta')
    session.send({ type: 'submit', text: 'And the README too.' })
    const finished = await t.waitFor(session, 'turnFinished')
    expect(finished).toMatchObject({ outcome: { type: 'done' } })
    expect(t.events(session, 'turnStarted')).toHaveLength(1)
    expect(t.events(session, 'steeringQueued')).toHaveLength(1)
    expect(t.server.requests).toHaveLength(2)
    const second = t.server.requests[1]!.body.messages as Array<{ role: string; content: unknown }>
    expect(second.map((message) => message.role)).toEqual(['user', 'assistant', 'user'])
    expect(JSON.stringify(second[2])).toContain('And the README too.')
    // On disk too: one turn, the steering as its own user message.
    const replayed = await t.engine.store.replay(session.id)
    if (!replayed.ok) throw new Error(replayed.error.message)
    expect(replayed.value.snapshot.turns).toHaveLength(1)
    expect(JSON.stringify(replayed.value.snapshot.workingSet.at(-1))).toContain('Also done with the README.')
    await t.engine.shutdown()
  })

  it('interrupt keeps queued steering for the next turn; cancel drops it', async () => {
    const project = buggyProject()
    const slow = {
      type: 'tool_use' as const,
      name: 'Bash',
      input: { command: 'sleep 20', description: 'Slow' },
    }
    const t = await engineWith([
      { blocks: [slow] },
      { blocks: [{ type: 'text', text: 'Next turn after the interrupt.' }] },
      { blocks: [slow] },
      { blocks: [{ type: 'text', text: 'Next turn after the cancel.' }] },
    ])
    const { waitFor } = eventHelpers(t.envelopes)
    const session = await t.engine.openSession({ projectRoot: project, mode: 'bypass', model: 'scripted:x' })
    for (const [stop, steering, turn] of [
      ['interrupt', 'kept: look at test.js', 1],
      ['cancel', 'dropped: look at package.json', 3],
    ] as const) {
      session.send({ type: 'submit', text: `Run the slow job (${stop}).` })
      await waitFor(session, 'toolStarted', turn === 1 ? 1 : 2)
      session.send({ type: 'steer', text: steering })
      await waitFor(session, 'steeringQueued', turn === 1 ? 1 : 2)
      session.send({ type: stop })
      const finished = await waitFor(session, 'turnFinished', turn)
      expect(finished).toMatchObject({
        outcome: { type: stop === 'interrupt' ? 'interrupted' : 'cancelled' },
      })
      session.send({ type: 'submit', text: 'Go on.' })
      await waitFor(session, 'turnFinished', turn + 1)
    }
    const afterInterrupt = JSON.stringify(t.client.requests[1]!.messages.at(-1))
    expect(afterInterrupt).toContain('kept: look at test.js')
    expect(afterInterrupt).toContain('Go on.')
    const afterCancel = JSON.stringify(t.client.requests.at(-1)!.messages)
    expect(afterCancel).not.toContain('dropped: look at package.json')
    expectPaired(t.client.requests.at(-1)!.messages)
    await t.engine.shutdown()
  })

  it('a message sent while a cancel or interrupt is still ending the turn starts the next turn', async () => {
    // The actor takes the submit before the stopped turn has settled (the stop only aborts it):
    // the message is the user's next one, not steering to hold for later.
    const project = buggyProject()
    const slow = {
      type: 'tool_use' as const,
      name: 'Bash',
      input: { command: 'sleep 300', description: 'Slow' },
    }
    const t = await engineWith([
      { blocks: [slow] },
      { blocks: [{ type: 'text', text: 'After the cancel.' }] },
      { blocks: [slow] },
      { blocks: [{ type: 'text', text: 'After the interrupt.' }] },
    ])
    const { waitFor } = eventHelpers(t.envelopes)
    const session = await t.engine.openSession({ projectRoot: project, mode: 'bypass', model: 'scripted:x' })
    for (const [stop, turn] of [
      ['cancel', 1],
      ['interrupt', 3],
    ] as const) {
      session.send({ type: 'submit', text: `Run the slow job (${stop}).` })
      await waitFor(session, 'toolStarted', turn === 1 ? 1 : 2)
      session.send({ type: stop })
      session.send({ type: 'submit', text: `Next, after the ${stop}.` })
      expect(await waitFor(session, 'turnFinished', turn + 1)).toMatchObject({ outcome: { type: 'done' } })
    }
    expect(JSON.stringify(t.client.requests[1]!.messages.at(-1))).toContain('Next, after the cancel.')
    expect(JSON.stringify(t.client.requests[3]!.messages.at(-1))).toContain('Next, after the interrupt.')
    await t.engine.shutdown()
  })

  it('cancel mid-stream leaves a valid transcript on disk: replay pairs every call, keeps no partial message, and a new turn works', async () => {
    const project = buggyProject()
    const long = 'I am explaining at length. '.repeat(400)
    const t = await sdkEngine(
      [
        { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } }] },
        { blocks: [{ type: 'text', text: long }] },
        { blocks: [{ type: 'text', text: 'Still here.' }] },
      ],
      { chunkDelayMs: 5 },
    )
    const session: Session = await t.engine.openSession({
      projectRoot: project,
      mode: 'bypass',
      model: WIRE_MODELS.anthropic,
    })
    session.send({ type: 'submit', text: 'Explain the code.' })
    await t.waitFor(session, 'textDelta')
    session.send({ type: 'cancel' })
    const cancelled = await t.waitFor(session, 'turnFinished')
    expect(cancelled).toMatchObject({ outcome: { type: 'cancelled' } })
    // The HTTP stream was closed, not drained.
    expect(t.server.requests[1]!.closedEarly).toBe(true)

    const replayed = await t.engine.store.replay(session.id)
    if (!replayed.ok) throw new Error(replayed.error.message)
    const { snapshot, problems } = replayed.value
    expect(problems).toEqual([])
    expect(snapshot.turns).toMatchObject([{ interrupted: false, outcome: { type: 'cancelled' } }])
    expectPaired(snapshot.workingSet)
    expect(snapshot.workingSet.map((message) => message.role)).toEqual(['user', 'assistant', 'user'])
    expect(JSON.stringify(snapshot.workingSet)).not.toContain('explaining at length')

    session.send({ type: 'submit', text: 'Are you there?' })
    const again = (await t.waitFor(session, 'turnFinished', 2)) as Extract<
      EngineEvent,
      { type: 'turnFinished' }
    >
    expect(again.outcome).toEqual({ type: 'done' })
    const sent = t.server.requests[2]!.body.messages as Array<{ role: string }>
    // The cancelled round left nothing behind: the previous request's conversation, then the new prompt.
    expect(sent.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'user'])
    expect(JSON.stringify(sent)).not.toContain('explaining at length')
    await t.engine.shutdown()
  })
})
