/**
 * Claude Code's `continue: false` (with `stopReason`) in a hook's JSON output, on a real Engine with
 * real hook scripts: PreToolUse and PostToolUse stop the turn after their batch, Stop ends the turn
 * even over a block, UserPromptSubmit refuses the prompt; the reason is shown to the user.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EngineEvent } from '@z-engine/protocol'
import { afterAll, describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

afterAll(() => cleanupTempDirs())

function homeWithHook(event: string, matcher: string | undefined, output: string): string {
  const home = tempDir('ze-home-')
  const hook = join(home, `${event}.sh`)
  writeFileSync(hook, `#!/bin/sh\ncat > /dev/null\nprintf '%s' '${output}'\n`)
  chmodSync(hook, 0o755)
  mkdirSync(join(home, 'config'), { recursive: true })
  writeFileSync(
    join(home, 'config', 'settings.toml'),
    `[[hooks.${event}]]\n${matcher === undefined ? '' : `matcher = "${matcher}"\n`}command = "${hook}"\n`,
  )
  return home
}

const notices = (events: EngineEvent[]) => events.flatMap((event) => (event.type === 'notice' ? [event] : []))

describe('Claude Code hooks: continue: false stops the turn and shows stopReason', {
  timeout: 60_000,
}, () => {
  it('PreToolUse: the call does not run, no further request is made, the reason is a notice', async () => {
    const project = buggyProject()
    const home = homeWithHook('PreToolUse', 'Bash', '{"continue": false, "stopReason": "deploys are frozen"}')
    const t = await engineWith(
      [
        {
          blocks: [
            { type: 'tool_use', name: 'Bash', input: { command: 'touch ran.txt', description: 'Touch' } },
            { type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } },
          ],
        },
        { blocks: [{ type: 'text', text: 'should not be asked' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'Deploy.' })
    const finished = await t.waitFor(session, 'turnFinished')
    expect(finished).toMatchObject({ outcome: { type: 'cancelled' } })
    expect(t.client.requests).toHaveLength(1)
    expect(existsSync(join(project, 'ran.txt'))).toBe(false)
    expect(notices(t.events(session, 'notice'))).toContainEqual(
      expect.objectContaining({
        code: 'hook_stopped',
        message: 'A hook stopped the turn: deploys are frozen',
      }),
    )
    // Every call still has its result (neither ran), so the conversation can go on.
    expect(t.events(session, 'toolStarted')).toEqual([])
    await t.engine.shutdown()
  })

  it('PostToolUse: the call ran, its result is kept, and the turn stops after the batch', async () => {
    const project = buggyProject()
    const home = homeWithHook(
      'PostToolUse',
      'Bash',
      '{"continue": false, "stopReason": "review the output first"}',
    )
    const t = await engineWith(
      [
        {
          blocks: [
            { type: 'tool_use', name: 'Bash', input: { command: 'touch ran.txt', description: 'Touch' } },
          ],
        },
        { blocks: [{ type: 'text', text: 'should not be asked' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'Touch.' })
    await t.waitFor(session, 'turnFinished')
    expect(existsSync(join(project, 'ran.txt'))).toBe(true)
    expect(t.client.requests).toHaveLength(1)
    expect(notices(t.events(session, 'notice'))).toContainEqual(
      expect.objectContaining({
        code: 'hook_stopped',
        message: 'A hook stopped the turn: review the output first',
      }),
    )
    await t.engine.shutdown()
  })

  it('Stop: continue: false wins over decision: block, so the turn ends with the reason', async () => {
    const project = buggyProject()
    const home = homeWithHook(
      'Stop',
      undefined,
      '{"continue": false, "stopReason": "out of budget", "decision": "block", "reason": "keep going"}',
    )
    const t = await engineWith(
      (_request, index) => ({ blocks: [{ type: 'text', text: `answer ${index}` }] }),
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Finish.' })
    expect(await t.waitFor(session, 'turnFinished')).toMatchObject({ outcome: { type: 'done' } })
    expect(t.client.requests).toHaveLength(1)
    expect(notices(t.events(session, 'notice'))).toContainEqual(
      expect.objectContaining({ code: 'hook_stopped', message: 'A hook stopped the turn: out of budget' }),
    )
    await t.engine.shutdown()
  })

  it('UserPromptSubmit: the prompt is refused with the stopReason and the model is never asked', async () => {
    const project = buggyProject()
    const home = homeWithHook(
      'UserPromptSubmit',
      undefined,
      '{"continue": false, "stopReason": "no prompts on Fridays"}',
    )
    const t = await engineWith([{ blocks: [{ type: 'text', text: 'never' }] }], home)
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Hello.' })
    await t.waitFor(session, 'turnFinished')
    expect(t.client.requests).toHaveLength(0)
    expect(
      notices(t.events(session, 'notice'))
        .map((notice) => notice.message)
        .join('\n'),
    ).toContain('no prompts on Fridays')
    await t.engine.shutdown()
  })
})

describe('Claude Code hooks: SessionEnd hears why the session closed', { timeout: 60_000 }, () => {
  it('close({reason}) passes clear / prompt_input_exit to SessionEnd; plain close is other', async () => {
    const project = buggyProject()
    const home = tempDir('ze-home-')
    // Hooks run confined (issue 34): the hook writes into a folder the user's settings make writable.
    mkdirSync(join(home, 'logs'), { recursive: true })
    const seen = join(home, 'logs', 'ends.jsonl')
    const hook = join(home, 'logs', 'end.sh')
    writeFileSync(hook, `#!/bin/sh\ncat >> ${seen}\necho >> ${seen}\n`)
    chmodSync(hook, 0o755)
    mkdirSync(join(home, 'config'), { recursive: true })
    writeFileSync(
      join(home, 'config', 'settings.toml'),
      `[[hooks.SessionEnd]]\ncommand = "${hook}"\n[shell.sandbox]\nwrite_paths = ["~/logs"]\n`,
    )
    const t = await engineWith([], home)
    for (const reason of ['clear', 'prompt_input_exit', undefined] as const) {
      const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
      await session.close(reason === undefined ? {} : { reason })
    }
    const reasons = readFileSync(seen, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => (JSON.parse(line) as { hook_event_name: string; reason: string }).reason)
    expect(reasons).toEqual(['clear', 'prompt_input_exit', 'other'])
    await t.engine.shutdown()
  })
})
