import { afterEach, describe, expect, it } from 'vitest'
import type { Ports } from '../ports.js'
import { RecordingAgents } from '../recording-ports.js'
import { makeTestCtx, resultText } from '../testing.js'
import { applyAgentChangesTool } from './apply-agent-changes.js'

const signal = new AbortController().signal
const contexts: Array<ReturnType<typeof makeTestCtx>> = []
const ctxWith = (ports: Ports) => {
  const ctx = makeTestCtx({ ports })
  contexts.push(ctx)
  return ctx
}
afterEach(() => {
  for (const ctx of contexts.splice(0)) ctx.cleanup()
})

describe('ApplyAgentChanges', () => {
  it('applies through the port and reports the changed files', async () => {
    const agents = new RecordingAgents()
    agents.applyOutcome = { ok: true, changedFiles: ['/p/a.ts', '/p/b.ts'] }
    const result = await applyAgentChangesTool.call({ agent_id: 'ag-2' }, ctxWith({ agents }), signal)
    expect(agents.applied).toEqual(['ag-2'])
    expect(resultText(result)).toBe("Applied agent ag-2's changes to 2 files:\n- /p/a.ts\n- /p/b.ts")
    expect(result.ok && result.output.changedFiles).toEqual(['/p/a.ts', '/p/b.ts'])
  })

  it('lists conflicts and says nothing changed', async () => {
    const agents = new RecordingAgents()
    agents.applyOutcome = {
      ok: false,
      conflicts: ['src/x.ts'],
      message: 'the three-way merge left conflicts.',
    }
    const result = await applyAgentChangesTool.call({ agent_id: 'ag-2' }, ctxWith({ agents }), signal)
    expect(result.ok).toBe(false)
    const text = resultText(result)
    expect(text).toContain(
      'Could not apply the changes of agent ag-2: the three-way merge left conflicts. Conflicting files:\n- src/x.ts',
    )
    expect(text).toContain('Nothing in the project was changed')
  })

  it('is a write of the project for the policy, and not concurrency-safe', () => {
    const ctx = ctxWith({})
    expect(applyAgentChangesTool.action({ agent_id: 'a' }, ctx)).toEqual({
      type: 'write',
      paths: [ctx.projectRoot],
    })
    expect(applyAgentChangesTool.isConcurrencySafe({ agent_id: 'a' })).toBe(false)
    expect(applyAgentChangesTool.isReadOnly({ agent_id: 'a' })).toBe(false)
  })
})
