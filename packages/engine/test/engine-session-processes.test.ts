/**
 * Issue 13 "Process hygiene": every process a session started dies when the session closes, not
 * only on timeout, cancel or engine shutdown — what a finished Bash command left running in its
 * group (`(sleep 300 &)`, `sleep 300 &`) and background jobs alike. Checked by pid.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isProcessAlive } from '@z-engine/host'
import { describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith } from './engine-harness.js'

cleanupTempDirs()

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (check()) return true
    await new Promise((done) => setTimeout(done, 25))
  }
  return check()
}

const bash = (command: string, extra: Record<string, unknown> = {}) => ({
  blocks: [{ type: 'tool_use' as const, name: 'Bash', input: { command, ...extra } }],
})

describe.runIf(process.platform === 'linux')('a closing session', () => {
  it("kills its Bash commands' leftovers and its background jobs, by pid", async () => {
    const project = buggyProject()
    const t = await engineWith([
      bash('(sleep 300 & echo $! > subshell.pid)'),
      bash('sleep 301 & echo $! > background.pid'),
      bash('echo $$ > job.pid; sleep 302', { run_in_background: true }),
      { blocks: [{ type: 'text', text: 'Started them.' }] },
    ])
    const session = await t.engine.openSession({ projectRoot: project, mode: 'bypass', model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Start some sleepers.' })
    expect(await t.waitFor(session, 'turnFinished')).toMatchObject({ outcome: { type: 'done' } })
    const files = ['subshell.pid', 'background.pid', 'job.pid'].map((name) => join(project, name))
    expect(
      await until(
        () => files.every((file) => existsSync(file) && readFileSync(file, 'utf8').endsWith('\n')),
        60_000,
      ),
    ).toBe(true)
    const pids = files.map((file) => Number(readFileSync(file, 'utf8').trim()))
    expect(pids.every(isProcessAlive)).toBe(true)

    await session.close()
    const alive = () => pids.filter(isProcessAlive)
    expect(await until(() => alive().length === 0, 60_000)).toBe(true)
    expect(alive()).toEqual([])
    await t.engine.shutdown()
  })
})
