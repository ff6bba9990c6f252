/**
 * Verification on a real Engine (spec 000 "Verification", "Stop boundary"): checks discovered from
 * an npm project's package.json, Verify running `npm test` (real npm, real `node --test`) through
 * the gate, CheckRecords with parsed counts, the turn badge, and strict mode continuing until the
 * scripted model fixes the test.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EngineEvent } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import type { ScriptedResponse } from '../src/testing.js'
import { cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

/** An npm project whose `npm test` runs one node:test test of `add`. */
function npmProject(): string {
  const project = tempDir('ze-verify-')
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'fixture', type: 'module', scripts: { test: 'node --test' } }),
  )
  writeFileSync(join(project, 'math.js'), 'export function add(a, b) {\n  return a + b\n}\n')
  writeFileSync(
    join(project, 'math.test.js'),
    "import { test } from 'node:test'\nimport assert from 'node:assert'\nimport { add } from './math.js'\ntest('adds', () => assert.equal(add(2, 3), 5))\n",
  )
  return project
}

function homeWithSettings(toml: string): string {
  const home = tempDir('ze-home-')
  mkdirSync(join(home, 'config'), { recursive: true })
  writeFileSync(join(home, 'config', 'settings.toml'), toml)
  return home
}

const call = (name: string, input: Record<string, unknown>): ScriptedResponse => ({
  blocks: [{ type: 'tool_use', name, input }],
})
const say = (text: string): ScriptedResponse => ({ blocks: [{ type: 'text', text }] })
const edit = (project: string, from: string, to: string) =>
  call('Edit', { file_path: join(project, 'math.js'), old_string: from, new_string: to })

describe('verification on a real engine (spec 000 "Verification")', () => {
  it('Verify discovers `test`, runs it through the gate and records counts: Verified, then Unverified after an edit, Failed on a failing test, not applicable when read-only', async () => {
    const project = npmProject()
    const read = call('Read', { file_path: join(project, 'math.js') })
    const t = await engineWith(
      [
        // Turn 1: a change, then the evidence.
        read,
        edit(project, 'return a + b', 'return a + b // sum'),
        call('Verify', { action: 'list' }),
        call('Verify', { action: 'run', checks: ['test'] }),
        say('Done; the test passes.'),
        // Turn 2: a later change, no check.
        edit(project, '// sum', '// the sum'),
        say('Renamed the comment.'),
        // Turn 3: a breaking change, and the failing check.
        edit(project, 'a + b', 'a - b'),
        call('Verify', { action: 'run' }),
        say('The test fails now.'),
        // Turn 4: reads only.
        read,
        say('It subtracts.'),
      ],
      // The same rule that lets Bash run `npm test` lets Verify run it: one gate.
      homeWithSettings('[permissions]\nallow = ["Bash(npm test)"]\n'),
    )
    const session = await t.engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'acceptEdits',
    })
    const turn = async (count: number) => {
      session.send({ type: 'submit', text: `turn ${count}` })
      return (await t.waitFor(session, 'turnFinished', count)) as Extract<
        EngineEvent,
        { type: 'turnFinished' }
      >
    }

    expect((await turn(1)).badge).toEqual({ type: 'verified', checkId: 'test' })
    expect(t.events(session, 'approvalRequested')).toEqual([])
    const outputs = t
      .events(session, 'toolFinished')
      .map((event) => (event.type === 'toolFinished' ? event.output : ''))
    expect(outputs[2]).toContain('- test (test): npm test  [from package.json scripts.test]')
    expect(outputs[3]).toMatch(/^test: passed \(exit 0, tests: 1 passed, 0 failed, 0 skipped/)
    const [recorded] = t.events(session, 'checkRecorded')
    expect(recorded).toMatchObject({
      record: {
        checkId: 'test',
        kind: 'test',
        command: 'npm test',
        exitCode: 0,
        passed: true,
        tests: { passed: 1, failed: 0, skipped: 0 },
      },
    })
    if (recorded?.type !== 'checkRecorded') throw new Error('no record')
    expect(recorded.record.fingerprintAfter).toMatch(/^sha256:/)
    expect(recorded.record.outputArtifact).toBeDefined()

    expect((await turn(2)).badge).toEqual({
      type: 'unverified',
      reason: 'Files changed after the last check ran.',
    })
    const failed = await turn(3)
    expect(failed.badge).toMatchObject({ type: 'failed', checkId: 'test' })
    expect(t.events(session, 'checkRecorded')[1]).toMatchObject({
      record: { passed: false, tests: { failed: 1 } },
    })
    expect((await turn(4)).badge).toEqual({ type: 'notApplicable' })
    await session.close()

    // The records are journaled: a resumed session replays them.
    const resumed = await t.engine.openSession({
      projectRoot: project,
      resume: session.id,
      model: 'scripted:x',
    })
    resumed.send({ type: 'runCommand', name: 'status', args: '' })
    await resumed.idle()
    const status = t.events(resumed, 'commandOutput')[0]
    expect(status?.type === 'commandOutput' && status.markdown).toContain(
      '**Verification:** report; checks test (npm test)',
    )
    expect(status?.type === 'commandOutput' && status.markdown).toMatch(
      /\*\*Last check:\*\* test failed \(0 passed, 1 failed\)/,
    )
    await resumed.close()
    await t.engine.shutdown()
  })

  it('a check run through Bash counts as its evidence: `npm test` passing verifies, failing fails, another command does not count', async () => {
    const project = npmProject()
    const read = call('Read', { file_path: join(project, 'math.js') })
    const t = await engineWith(
      [
        read,
        edit(project, 'return a + b', 'return a + b // sum'),
        call('Bash', { command: 'npm test' }),
        say('The test passes.'),
        edit(project, 'a + b', 'a - b'),
        call('Bash', { command: 'npm  run test' }),
        say('The test fails now.'),
        // The completion guard nudges once about the failing check; the second answer ends the turn.
        say('It still fails: the subtraction is the bug.'),
        edit(project, 'a - b', 'a + b'),
        call('Bash', { command: 'node --test' }),
        say('Ran node directly.'),
      ],
      homeWithSettings(
        '[permissions]\nallow = ["Bash(npm test)", "Bash(npm run test)", "Bash(node --test)"]\n',
      ),
    )
    const session = await t.engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'acceptEdits',
    })
    const turn = async (count: number) => {
      session.send({ type: 'submit', text: `turn ${count}` })
      return (await t.waitFor(session, 'turnFinished', count)) as Extract<
        EngineEvent,
        { type: 'turnFinished' }
      >
    }
    expect((await turn(1)).badge).toEqual({ type: 'verified', checkId: 'test' })
    expect(t.events(session, 'checkRecorded')[0]).toMatchObject({
      record: { checkId: 'test', kind: 'test', command: 'npm test', exitCode: 0, passed: true },
    })
    const second = await turn(2)
    expect(second.badge).toMatchObject({ type: 'failed', checkId: 'test' })
    expect(second.outcome).toMatchObject({ type: 'incomplete', reason: 'failingCheck' })
    expect((await turn(3)).badge).toEqual({
      type: 'unverified',
      reason: 'Files changed after the last check ran.',
    })
    expect(t.events(session, 'checkRecorded')).toHaveLength(2)
    await t.engine.shutdown()
  })

  it('strict mode runs the test at the stop boundary and continues with the failure until the model fixes it', async () => {
    const project = npmProject()
    const t = await engineWith(
      [
        call('Read', { file_path: join(project, 'math.js') }),
        edit(project, 'a + b', 'a - b'),
        say('Changed add.'),
        edit(project, 'a - b', 'a + b'),
        say('Fixed add; the test passes.'),
      ],
      homeWithSettings('[verification]\nmode = "strict"\nmax_continuations = 2\n'),
    )
    await t.engine.trustWorkspace(project)
    const session = await t.engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'acceptEdits',
    })
    session.send({ type: 'submit', text: 'Change add.' })
    const finished = await t.waitFor(session, 'turnFinished')
    expect(finished).toMatchObject({
      outcome: { type: 'done' },
      badge: { type: 'verified', checkId: 'test' },
    })
    const records = t
      .events(session, 'checkRecorded')
      .map((event) => (event.type === 'checkRecorded' ? event.record.passed : undefined))
    expect(records).toEqual([false, true])
    // The failure went back to the model as a reminder in the message after "Changed add.".
    const fed = JSON.stringify(t.client.requests[3]?.messages.at(-1)?.content ?? [])
    expect(fed).toContain('The checks that ran when you ended your turn failed')
    expect(fed).toContain('test (npm test) failed: exit code 1')
    expect(t.client.requests).toHaveLength(5)
    await t.engine.shutdown()
  })
})
