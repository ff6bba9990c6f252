import { execFileSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { EngineEvent, EventEnvelope } from '@z-engine/protocol'
import { afterEach } from 'vitest'
import { Engine, type EngineOptions, type Session } from '../src/index.js'
import { ScriptedClient, type ScriptedResponse, type ScriptSource } from '../src/testing.js'

const dirs: string[] = []

/** Removes every temp dir made by `tempDir` after each test. */
export function cleanupTempDirs(): void {
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
}

/** A fresh real temp dir (symlinks resolved), removed after the test. */
export function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  dirs.push(dir)
  return dir
}

/** A git project with a failing test: `add` subtracts. */
export function buggyProject(): string {
  const project = tempDir('ze-proj-')
  writeFileSync(join(project, 'math.js'), 'export function add(a, b) {\n  return a - b\n}\n')
  writeFileSync(
    join(project, 'test.js'),
    "import { add } from './math.js'\nif (add(2, 3) !== 5) { console.error('FAIL: add(2, 3) =', add(2, 3)); process.exit(1) }\nconsole.log('PASS')\n",
  )
  writeFileSync(join(project, 'package.json'), '{"type":"module"}\n')
  execFileSync('git', ['init', '-q'], { cwd: project })
  execFileSync('git', ['add', '.'], { cwd: project })
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init'], {
    cwd: project,
  })
  return project
}

/** An engine over temp dirs whose every model is the scripted client; records every event. */
export async function engineWith(
  script: ScriptSource,
  home = tempDir('ze-home-'),
  extra: Partial<EngineOptions> = {},
) {
  const client = new ScriptedClient(script)
  const envelopes: EventEnvelope[] = []
  const engine = await Engine.create({
    home,
    dataDir: join(home, 'data'),
    configDir: join(home, 'config'),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
    // An injected factory gets every reference as given; this one has no `nope/…` models.
    clientFactory: {
      createClient: (ref) =>
        ref.startsWith('nope/')
          ? { ok: false, error: `The scripted factory has no model ${ref}.` }
          : { ok: true, client, provider: 'scripted', model: 'scripted' },
    },
    onEvent: (envelope) => envelopes.push(envelope),
    ...extra,
  })
  const events = (session: Session, type?: EngineEvent['type']) =>
    envelopes
      .filter((envelope) => envelope.sessionId === session.id)
      .map((envelope) => envelope.event)
      .filter((event) => type === undefined || event.type === type)
  /**
   * Resolves with the `count`-th event of `type` of a session. Fails after `timeoutMs` (short of
   * vitest's own timeout) naming what was awaited and the session's events so far, so that a hang
   * under load says where it stopped. A waiter that may never be satisfied (answering approvals
   * until the turn ends) passes `signal` and is stopped by it: resolves with undefined.
   */
  async function waitFor(
    session: Session,
    type: EngineEvent['type'],
    count?: number,
    timeoutMs?: number,
  ): Promise<EngineEvent>
  async function waitFor(
    session: Session,
    type: EngineEvent['type'],
    count: number,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<EngineEvent | undefined>
  async function waitFor(
    session: Session,
    type: EngineEvent['type'],
    count = 1,
    timeoutMs = 90_000,
    signal?: AbortSignal,
  ): Promise<EngineEvent | undefined> {
    const started = Date.now()
    for (;;) {
      const found = events(session, type)
      if (found.length >= count) return found[count - 1]!
      if (signal?.aborted) return undefined
      if (Date.now() - started > timeoutMs)
        throw new Error(
          `No ${type} #${count} within ${timeoutMs} ms; the session's events: ${events(session)
            .map((event) => event.type)
            .join(', ')}`,
        )
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  }
  return { engine, client, envelopes, home, events, waitFor }
}

/** The model's side of fixing `buggyProject`: Read, Edit, Bash runs the test, then a final answer. */
export function fixTheBugResponses(project: string): ScriptedResponse[] {
  return [
    {
      blocks: [
        { type: 'text', text: 'Reading the code.' },
        { type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } },
      ],
    },
    {
      blocks: [
        {
          type: 'tool_use',
          name: 'Edit',
          input: { file_path: join(project, 'math.js'), old_string: 'a - b', new_string: 'a + b' },
        },
      ],
    },
    {
      blocks: [
        { type: 'tool_use', name: 'Bash', input: { command: 'node test.js', description: 'Run the test' } },
      ],
    },
    { blocks: [{ type: 'text', text: 'Fixed: add now adds, and the test passes.' }] },
  ]
}
