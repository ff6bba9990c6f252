import { afterEach, describe, expect, it } from 'vitest'
import type { Ports } from '../ports.js'
import { agentResult, RecordingAgents } from '../recording-ports.js'
import { makeTestCtx, resultText } from '../testing.js'
import { agentTool, createAgentTool } from './agent.js'

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

const input = {
  description: 'Find the parser',
  prompt: 'Where is the TOML parser? Report file paths.',
  subagent_type: 'explore',
}

describe('Agent', () => {
  it('spawns a foreground agent and returns its final message, usage and changed files', async () => {
    const agents = new RecordingAgents()
    agents.outcome = {
      type: 'done',
      result: agentResult('The parser is in src/toml.ts.', {
        agentId: 'ag-7',
        changedFiles: ['/p/src/toml.ts'],
      }),
    }
    const result = await agentTool.call(input, ctxWith({ agents }), signal)
    expect(agents.spawned).toEqual([
      { agentType: 'explore', description: 'Find the parser', prompt: input.prompt, background: false },
    ])
    const text = resultText(result)
    expect(text).toMatch(/^The parser is in src\/toml\.ts\./)
    expect(text).toContain('agent_id: ag-7')
    expect(text).toContain('usage: 1500 tokens (1200 in, 300 out)')
    expect(text).toContain('- /p/src/toml.ts')
    expect(result.ok && result.output.changedFiles).toEqual(['/p/src/toml.ts'])
  })

  it('passes background, resume, model and isolation through and returns the job id at once', async () => {
    const agents = new RecordingAgents()
    agents.outcome = { type: 'background', jobId: 'job-3', agentId: 'ag-3' }
    const result = await agentTool.call(
      { ...input, run_in_background: true, model: 'fast', isolation: 'worktree' },
      ctxWith({ agents }),
      signal,
    )
    expect(agents.spawned[0]).toMatchObject({ background: true, model: 'fast', isolation: 'worktree' })
    expect(resultText(result)).toContain('as job job-3')
    expect(resultText(result)).toContain('JobOutput')
  })

  it('names the available types when the type is unknown, without spawning', async () => {
    const agents = new RecordingAgents()
    const result = await agentTool.call({ ...input, subagent_type: 'x' }, ctxWith({ agents }), signal)
    expect(result.ok).toBe(false)
    expect(resultText(result)).toBe("No agent type 'x'; available: general, explore.")
    expect(agents.spawned).toEqual([])
  })

  it('lets a resumed agent keep its own type', async () => {
    const agents = new RecordingAgents()
    await agentTool.call({ ...input, subagent_type: 'custom', resume: 'ag-1' }, ctxWith({ agents }), signal)
    expect(agents.spawned[0]).toMatchObject({ resume: 'ag-1', agentType: 'custom' })
  })

  it('points at ApplyAgentChanges for a worktree agent and reports no project change yet', async () => {
    const agents = new RecordingAgents()
    agents.outcome = {
      type: 'done',
      result: agentResult('Refactored.', {
        agentId: 'ag-9',
        changedFiles: ['/wt/a.ts'],
        info: {
          worktree: {
            type: 'pending',
            path: '/p/.z-engine/worktrees/ag-9',
            branch: 'zengine/ag-9',
            summary: '1 file, +3 -1',
            changedFiles: ['a.ts'],
          },
        },
      }),
    }
    const result = await agentTool.call(input, ctxWith({ agents }), signal)
    expect(resultText(result)).toContain('call ApplyAgentChanges with agent_id "ag-9"')
    expect(result.ok && result.output.changedFiles).toBeUndefined()
  })

  it('reports a failed agent as an error that keeps its message', async () => {
    const agents = new RecordingAgents()
    agents.outcome = {
      type: 'done',
      result: agentResult('Ran out of turns.', { info: { status: 'failed' } }),
    }
    const result = await agentTool.call(input, ctxWith({ agents }), signal)
    expect(result.ok).toBe(false)
    expect(resultText(result)).toContain('The agent failed.')
    expect(resultText(result)).toContain('Ran out of turns.')
  })

  it('opts in to concurrency, maps to startAgent and lists the catalog in its description', () => {
    const ctx = ctxWith({})
    expect(agentTool.isConcurrencySafe(input)).toBe(true)
    expect(agentTool.isReadOnly(input)).toBe(false)
    expect(agentTool.action(input, ctx)).toEqual({ type: 'startAgent', agentType: 'explore' })
    expect(agentTool.title(input, ctx)).toBe('Agent (explore): Find the parser')
    const described = createAgentTool(() => [{ name: 'review', description: 'Reviews a diff' }]).description()
    expect(described).toContain('- review: Reviews a diff')
    expect(agentTool.description()).not.toContain('Available agent types')
  })
})
