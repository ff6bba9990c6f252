/**
 * Issue 9 acceptance "SIGKILL of the process mid-turn, then resume shows the turn interrupted and a
 * new turn works" (spec 000 "Persistence": a turn that started but never finished is reported as
 * Interrupted; every tool_use always receives a tool_result).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Message } from '@z-engine/protocol'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

const engineRoot = resolve(import.meta.dirname, '..')
const children: ChildProcess[] = []
const sleepers: number[] = []
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  // The slow command outlives the killed engine (nobody is left to stop it): end it by its pid.
  for (const pid of sleepers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
})

/** Every tool_use of an assistant message is answered, once each and in call order, by the next message. */
function expectPairedToolResults(messages: readonly Message[]): void {
  messages.forEach((message, index) => {
    const calls =
      message.role === 'assistant' ? message.content.filter((block) => block.type === 'tool_use') : []
    if (calls.length === 0) return
    const next = messages[index + 1]
    expect(next?.role, `message after ${message.id}`).toBe('user')
    const results = (next?.content ?? []).filter((block) => block.type === 'tool_result')
    expect(results.map((block) => block.type === 'tool_result' && block.toolUseId)).toEqual(
      calls.map((block) => block.type === 'tool_use' && block.id),
    )
  })
  const resultIds = messages.flatMap((message) =>
    message.content.flatMap((block) => (block.type === 'tool_result' ? [block.toolUseId] : [])),
  )
  expect(new Set(resultIds).size).toBe(resultIds.length)
}

/** Starts the crash child and resolves with the session id once a stdout line matches `pattern`. */
async function childUntil(
  args: { home: string; project: string; script: string; mode?: string },
  pattern: RegExp,
): Promise<{ child: ChildProcess; sessionId: string; stdout: () => string }> {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@z-engine/source',
      '--import',
      'tsx',
      'test/fixtures/crash-child.ts',
      args.home,
      args.project,
      args.script,
      args.mode ?? 'bypass',
    ],
    { cwd: engineRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  children.push(child)
  let stdout = ''
  let stderr = ''
  child.stderr!.on('data', (chunk) => {
    stderr += String(chunk)
  })
  const sessionId = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`child never printed ${pattern}:\n${stdout}\n${stderr}`)),
      // A ceiling just under the test's own, not a guess: the child compiles the engine from its
      // TypeScript sources, which takes well over 30 s on a loaded machine.
      100_000,
    )
    child.stdout!.on('data', (chunk) => {
      stdout += String(chunk)
      const match = pattern.exec(stdout)
      if (match) {
        clearTimeout(timer)
        resolvePromise(match[1]!)
      }
    })
    child.on('exit', (code) => reject(new Error(`child exited early (${code}):\n${stdout}\n${stderr}`)))
  })
  return { child, sessionId, stdout: () => stdout }
}

/** SIGKILLs the child and waits until it is gone. */
async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((done) => child.on('exit', (_code, signal) => done(signal)))
  child.kill('SIGKILL')
  expect(await exited).toBe('SIGKILL')
}

/** Writes a JSONL script file. */
function writeScript(path: string, steps: unknown[]): string {
  writeFileSync(path, steps.map((step) => JSON.stringify(step)).join('\n'))
  return path
}

describe('crash and resume (spec 000 "Persistence")', () => {
  it('SIGKILL of the process mid-turn, then resume shows the turn interrupted and a new turn works', async () => {
    const home = tempDir('ze-crash-home-')
    const project = tempDir('ze-crash-proj-')
    writeFileSync(join(project, 'notes.txt'), 'remember the milk\n')
    const pidFile = join(project, 'sleeper.pid')
    const script = writeScript(join(home, 'script.jsonl'), [
      { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'notes.txt') } }] },
      {
        blocks: [
          { type: 'text', text: 'Running the slow job.' },
          {
            type: 'tool_use',
            name: 'Bash',
            input: { command: `echo $$ > ${pidFile}; sleep 30`, description: 'Slow job' },
          },
        ],
      },
      { blocks: [{ type: 'text', text: 'never reached' }] },
    ])

    // A real second process runs the turn; it is killed without warning while Bash sleeps.
    const { child, sessionId, stdout } = await childUntil(
      { home, project, script },
      /TOOL_STARTED (\S+) Bash/,
    )
    // Wait until the shell really runs the command, then kill the engine mid-tool.
    for (let waited = 0; !existsSync(pidFile) && waited < 10_000; waited += 10)
      await new Promise((done) => setTimeout(done, 10))
    sleepers.push(Number(readFileSync(pidFile, 'utf8').trim()))
    await kill(child)
    expect(stdout()).not.toContain('TURN_FINISHED')

    const t = await engineWith(
      [{ blocks: [{ type: 'text', text: 'The slow job was cut off; notes say milk.' }] }],
      home,
    )
    // The replayed snapshot has the turn interrupted and a tool result for every call.
    const replayed = await t.engine.store.replay(sessionId)
    if (!replayed.ok) throw new Error(replayed.error.message)
    const snapshot = replayed.value.snapshot
    expect(snapshot.turns).toHaveLength(1)
    expect(snapshot.turns[0]).toMatchObject({ interrupted: true, outcome: { type: 'interrupted' } })
    const cards = snapshot.transcript.flatMap((item) =>
      item.kind === 'tool' ? [[item.name, item.status]] : [],
    )
    expect(cards).toEqual([
      ['Read', 'ok'],
      ['Bash', 'interrupted'],
    ])
    expectPairedToolResults(snapshot.workingSet)
    expect(JSON.stringify(snapshot.workingSet)).toContain('remember the milk')

    // Resume and run a new turn with the scripted model.
    const session = await t.engine.openSession({ projectRoot: project, resume: sessionId })
    session.send({ type: 'submit', text: 'What happened?' })
    const finished = await t.waitFor(session, 'turnFinished')
    expect(finished).toMatchObject({ outcome: { type: 'done' } })
    const sent = t.client.requests[0]!.messages
    expectPairedToolResults(sent)
    expect(sent.at(-1)!.content).toContainEqual({ type: 'text', text: 'What happened?' })
    expect(JSON.stringify(sent)).toContain('Running the slow job.')
    await t.engine.shutdown()

    // On disk now: the interrupted turn, then a finished one.
    const after = await t.engine.store.replay(sessionId)
    if (!after.ok) throw new Error(after.error.message)
    expect(after.value.snapshot.turns.map((turn) => [turn.outcome.type, turn.interrupted])).toEqual([
      ['interrupted', true],
      ['done', false],
    ])
    expectPairedToolResults(after.value.snapshot.workingSet)
  })
  it('SIGKILL while an approval card waits: resume shows the turn interrupted, the call answered, and no card left open', async () => {
    const home = tempDir('ze-crash-home-')
    const project = tempDir('ze-crash-proj-')
    writeFileSync(join(project, 'math.js'), 'export const add = (a, b) => a - b\n')
    const script = writeScript(join(home, 'script.jsonl'), [
      {
        blocks: [
          { type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } },
          {
            type: 'tool_use',
            name: 'Bash',
            input: { command: 'touch should-not-exist', description: 'Needs approval' },
          },
        ],
      },
    ])
    const { child, sessionId, stdout } = await childUntil(
      { home, project, script, mode: 'default' },
      /APPROVAL (\S+) Bash/,
    )
    await kill(child)
    expect(stdout()).not.toContain('TURN_FINISHED')
    expect(existsSync(join(project, 'should-not-exist'))).toBe(false)

    const t = await engineWith([{ blocks: [{ type: 'text', text: 'Starting over.' }] }], home)
    const replayed = await t.engine.store.replay(sessionId)
    if (!replayed.ok) throw new Error(replayed.error.message)
    const { snapshot } = replayed.value
    expect(snapshot.turns).toMatchObject([{ interrupted: true, outcome: { type: 'interrupted' } }])
    expectPairedToolResults(snapshot.workingSet)
    const session = await t.engine.openSession({ projectRoot: project, resume: sessionId })
    session.send({ type: 'submit', text: 'Try again later.' })
    expect(await t.waitFor(session, 'turnFinished')).toMatchObject({ outcome: { type: 'done' } })
    expect(t.events(session, 'approvalRequested')).toEqual([])
    expectPairedToolResults(t.client.requests[0]!.messages)
    expect(existsSync(join(project, 'should-not-exist'))).toBe(false)
    await t.engine.shutdown()
  })
})
