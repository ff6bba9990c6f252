import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { actionFor } from '@z-engine/tools'
import { afterEach, describe, expect, it } from 'vitest'
import { coreOf } from '../src/api/engine.js'
import { buildAgentBatchDeps } from '../src/session/agent-batch-deps.js'
import { checkPermission } from '../src/settings-entry.js'
import { cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

afterEach(cleanupTempDirs)

const RULES = {
  allow: ['Bash(npm test:*)', 'WebFetch(domain:docs.example.com)'],
  deny: ['Read(./secret.txt)', 'Bash(curl:*)'],
  ask: ['Bash(git push:*)'],
}

const CALLS: Array<[string, Record<string, unknown>]> = [
  ['Bash', { command: 'npm test -- --watch=false' }],
  ['Bash', { command: 'git push origin main' }],
  ['Bash', { command: 'curl https://example.com' }],
  ['Bash', { command: 'ls -la' }],
  ['Bash', { command: 'rm -rf build' }],
  ['Read', { file_path: 'secret.txt' }],
  ['Read', { file_path: 'src/a.ts' }],
  ['Write', { file_path: 'src/a.ts', content: 'x' }],
  ['WebFetch', { url: 'https://docs.example.com/a', prompt: 'p' }],
  ['WebFetch', { url: 'http://127.0.0.1:8080/', prompt: 'p' }],
]

describe('one gate', () => {
  it('permissions check, a session and a subagent decide every call alike', async () => {
    const home = tempDir('ze-home-')
    const project = tempDir('ze-gate-')
    mkdirSync(join(home, 'config'), { recursive: true })
    const list = (rules: string[]) => `[${rules.map((rule) => JSON.stringify(rule)).join(', ')}]`
    writeFileSync(
      join(home, 'config', 'settings.toml'),
      `[permissions]\nallow = ${list(RULES.allow)}\ndeny = ${list(RULES.deny)}\nask = ${list(RULES.ask)}\n`,
    )
    const { engine } = await engineWith([], home)
    const session = await engine.openSession({ projectRoot: project, model: 'scripted:x' })
    const core = coreOf(session)
    const deps = (agentId: string) =>
      buildAgentBatchDeps(core, {
        agentId,
        root: session.projectRoot,
        tools: [],
        cwd: { get: () => session.projectRoot, set: () => {} },
        mode: () => core.state.mode,
        scope: agentId === 'main' ? {} : { agentId },
        cancelledFeedback: 'cancelled',
        bindCtx: (ctx) => ctx,
      })
    const main = deps('main')
    const subagent = deps('agent_1')
    // As a batch does before deciding a shell call: the sandbox probe's facts are in (issue 17).
    await main.decideReady?.()
    const where = { projectRoot: session.projectRoot, cwd: session.projectRoot, home }
    const seen = new Set<string>()
    for (const [tool, input] of CALLS) {
      const checked = checkPermission({ tool, input, rules: RULES, cwd: session.projectRoot, home })
      if (!checked.ok) throw new Error(checked.error)
      const action = actionFor(tool, input, where)
      const fromSession = main.decide(tool, action)
      const fromSubagent = subagent.decide(tool, action)
      const label = `${tool} ${JSON.stringify(input)}`
      expect(fromSession.decision, label).toBe(checked.decision)
      expect(fromSubagent.decision, label).toBe(checked.decision)
      expect(fromSession.reason, label).toBe(fromSubagent.reason)
      seen.add(checked.decision)
    }
    // The table exercises every verdict, so agreement is not agreement on one answer.
    expect([...seen].sort()).toEqual(['allow', 'ask', 'deny'])
    await engine.shutdown()
  })
})
