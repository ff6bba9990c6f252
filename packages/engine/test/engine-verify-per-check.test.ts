/**
 * Verify per check (issue 39): each check of a run is its own permission. `Verify(test)` allows the
 * test while the build asks (the approval names it and its command) and the lint is denied by
 * `Verify(lint)`; denying the ask still runs the test, and the badge names only what ran.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EngineEvent } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import type { ScriptedResponse } from '../src/testing.js'
import { cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

function npmProject(): string {
  const project = tempDir('ze-verify-parts-')
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'fixture',
      type: 'module',
      scripts: { test: 'node --test', build: 'node -e "process.exit(0)"', lint: 'node -e "process.exit(0)"' },
    }),
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

type Finished = Extract<EngineEvent, { type: 'turnFinished' }>

describe('Verify asks per check (issue 39)', () => {
  it('runs the allowed check, asks for the other naming it, leaves out the denied one; the badge names what ran', async () => {
    const project = npmProject()
    const edit = (from: string, to: string) =>
      call('Edit', { file_path: join(project, 'math.js'), old_string: from, new_string: to })
    const t = await engineWith(
      [
        call('Read', { file_path: join(project, 'math.js') }),
        edit('return a + b', 'return a + b // sum'),
        call('Verify', { action: 'run' }),
        say('Tested.'),
        edit('// sum', '// the sum'),
        call('Verify', { action: 'run', checks: ['test', 'build'] }),
        say('Tested and built.'),
      ],
      homeWithSettings('[permissions]\nallow = ["Verify(test)"]\ndeny = ["Verify(lint)"]\n'),
    )
    const session = await t.engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'acceptEdits',
    })

    session.send({ type: 'submit', text: 'turn 1' })
    const asked = await t.waitFor(session, 'approvalRequested')
    if (asked.type !== 'approvalRequested') throw new Error('unreachable')
    expect(asked.request.reason).toContain('build (npm run build)')
    expect(asked.request.reason).not.toContain('test (npm test)')
    expect(asked.request.suggestion).toEqual({ rule: 'Verify(build)', scope: 'project' })
    session.send({ type: 'resolveApproval', approvalId: asked.request.id, decision: { type: 'deny' } })
    const first = (await t.waitFor(session, 'turnFinished')) as Finished
    const verify = t
      .events(session, 'toolFinished')
      .filter((event) => event.type === 'toolFinished' && event.toolName === 'Verify')
    expect(verify[0]).toMatchObject({ status: 'ok' })
    const output = verify[0]?.type === 'toolFinished' ? (verify[0].output ?? '') : ''
    expect(output).toMatch(/^test: passed/)
    expect(output).toContain('Not run, permission denied: lint (npm run lint): a deny rule forbids')
    expect(output).toContain('Not run: build (npm run build). The user denied this action.')
    expect(
      t
        .events(session, 'checkRecorded')
        .map((event) => event.type === 'checkRecorded' && event.record.checkId),
    ).toEqual(['test'])
    expect(first.badge).toEqual({ type: 'verified', checkId: 'test' })

    session.send({ type: 'submit', text: 'turn 2' })
    const again = await t.waitFor(session, 'approvalRequested', 2)
    if (again.type !== 'approvalRequested') throw new Error('unreachable')
    session.send({ type: 'resolveApproval', approvalId: again.request.id, decision: { type: 'allowOnce' } })
    const second = (await t.waitFor(session, 'turnFinished', 2)) as Finished
    expect(second.badge).toEqual({ type: 'verified', checkId: 'build', checks: ['test', 'build'] })
    await t.engine.shutdown()
  })

  it('a run whose every check a rule denies is denied, naming each check and why', async () => {
    const project = npmProject()
    const t = await engineWith(
      [
        call('Read', { file_path: join(project, 'math.js') }),
        call('Verify', { action: 'run', checks: ['build', 'lint'] }),
        say('No.'),
      ],
      homeWithSettings('[permissions]\ndeny = ["Verify(build)", "Verify(lint)"]\n'),
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    await t.waitFor(session, 'turnFinished')
    const verify = t
      .events(session, 'toolFinished')
      .find((event) => event.type === 'toolFinished' && event.toolName === 'Verify')
    expect(verify).toMatchObject({ status: 'denied' })
    expect(verify?.type === 'toolFinished' && verify.output).toMatch(
      /^Permission denied: build \(npm run build\): a deny rule forbids .*; lint \(npm run lint\): a deny rule forbids/,
    )
    expect(t.events(session, 'approvalRequested')).toEqual([])
    await t.engine.shutdown()
  })
})
