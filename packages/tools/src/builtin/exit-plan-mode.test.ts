import { afterEach, describe, expect, it } from 'vitest'
import type { Ports } from '../ports.js'
import { RecordingInteraction } from '../recording-ports.js'
import { makeTestCtx, resultText } from '../testing.js'
import { exitPlanModeTool } from './exit-plan-mode.js'

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

describe('ExitPlanMode', () => {
  const plan = '1. Add the parser\n2. Test it'

  it('reports the mode the user approved the plan into', async () => {
    const interaction = new RecordingInteraction([], { approved: true, mode: 'acceptEdits' })
    const result = await exitPlanModeTool.call({ plan }, ctxWith({ interaction }), signal)
    expect(interaction.plans).toEqual([plan])
    expect(resultText(result)).toContain('now in acceptEdits mode')
    // The model gets the approved plan back with the approval, as Claude Code gives it.
    expect(resultText(result)).toContain(`## Approved Plan:\n${plan}`)
  })

  it('returns the feedback of a rejection as an error the model can act on', async () => {
    const interaction = new RecordingInteraction([], { approved: false, feedback: 'Also cover the CLI' })
    const result = await exitPlanModeTool.call({ plan }, ctxWith({ interaction }), signal)
    expect(result.ok).toBe(false)
    expect(resultText(result)).toContain('Their feedback: Also cover the CLI')
    expect(resultText(result)).toContain('still in plan mode')
  })

  it('previews the plan, stays read-only (allowed in plan mode) and opts out of concurrency', async () => {
    const ctx = ctxWith({})
    expect(await exitPlanModeTool.preview({ plan }, ctx)).toEqual({ type: 'text', text: plan })
    expect(exitPlanModeTool.action({ plan }, ctx)).toEqual({
      type: 'other',
      toolName: 'ExitPlanMode',
      readOnly: true,
    })
    expect(exitPlanModeTool.isConcurrencySafe({ plan })).toBe(false)
  })
})
