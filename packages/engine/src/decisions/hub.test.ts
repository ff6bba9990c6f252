import type { DecisionTrace } from '@z-engine/protocol'
import type { SideModelPort } from '@z-engine/tools'
import { describe, expect, it } from 'vitest'
import { sharedDeadlineMs } from './deadline.js'
import { DecisionHub } from './hub.js'
import { MAX_SHADOW_SLOTS } from './shadow-slots.js'
import type { AnyDecisionUse, DecisionUse } from './use.js'

/** A tool-gate use that asks the decision model and advises an Ask with the model's text as reason. */
function gateUse(feature: string): DecisionUse<'toolGate'> {
  return {
    feature,
    seam: 'toolGate',
    summary: feature,
    decide: async (_input, ctx) => ({ ask: true, reason: await ctx.complete(feature) }),
    describe: (advice) => advice.reason,
  }
}

const gateInput = { toolName: 'Bash', title: 'Run ls', input: { command: 'ls' }, agentId: 'main' }

function hubWith(
  uses: AnyDecisionUse[],
  modes: Record<string, 'off' | 'shadow' | 'on'>,
  service: SideModelPort | undefined,
  // A ceiling for a loaded machine unless a test times the model out.
  timeoutMs = 30_000,
) {
  const traces: DecisionTrace[] = []
  let n = 0
  const hub = new DecisionHub({
    uses,
    modes,
    timeoutMs,
    service,
    record: async (trace) => {
      traces.push(trace)
    },
    newId: (prefix) => `${prefix}${++n}`,
  })
  return { hub, traces }
}

/** A decision model that answers each prompt with its text after `delayMs` (never, when undefined). */
function model(delayMs: number | undefined): SideModelPort & { calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    complete: (prompt, signal) => {
      calls.push(prompt)
      return new Promise((resolve, reject) => {
        if (delayMs !== undefined) setTimeout(() => resolve(prompt), delayMs)
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true })
      })
    },
  }
}

describe('decision hub (spec 000 "Decision seams")', () => {
  it('A seam returns at once when no running use joins it', async () => {
    const service = model(0)
    const { hub, traces } = hubWith([gateUse('decisions_a')], { decisions_a: 'off' }, service)
    expect(hub.joins('toolGate')).toBe(false)
    expect(await hub.consult('toolGate', gateInput)).toEqual([])
    expect(service.calls).toEqual([])
    expect(traces).toEqual([])
    // No decision model: nobody joins either.
    const none = hubWith([gateUse('decisions_a')], { decisions_a: 'on' }, undefined)
    expect(none.hub.joins('toolGate')).toBe(false)
  })

  it('advice applies in USES order', async () => {
    // The first-registered use answers last; advice still comes back in registration order.
    const slowFirst: DecisionUse<'toolGate'> = {
      ...gateUse('decisions_first'),
      decide: async (_input, ctx) => {
        await new Promise((resolve) => setTimeout(resolve, 30))
        return { ask: true, reason: await ctx.complete('first') }
      },
    }
    const { hub } = hubWith(
      [slowFirst, gateUse('decisions_second')],
      { decisions_first: 'on', decisions_second: 'on' },
      model(0),
    )
    const advice = await hub.consult('toolGate', gateInput)
    expect(advice.map((one) => one.reason)).toEqual(['first', 'decisions_second'])
  })

  it('on uses share a deadline of twice decisions.timeout_ms plus 50 ms; a timeout abstains', async () => {
    expect(sharedDeadlineMs(1_500)).toBe(3_050)
    const { hub, traces } = hubWith([gateUse('decisions_a')], { decisions_a: 'on' }, model(undefined), 20)
    const started = Date.now()
    expect(await hub.consult('toolGate', gateInput)).toEqual([])
    const took = Date.now() - started
    expect(took).toBeGreaterThanOrEqual(sharedDeadlineMs(20) - 5)
    // The model never answers: without the deadline this would not return at all.
    expect(took).toBeLessThan(30_000)
    expect(traces).toMatchObject([{ feature: 'decisions_a', mode: 'on', outcome: 'timeout' }])
  })

  it('Any model failure abstains', async () => {
    const failing: SideModelPort = { complete: async () => Promise.reject(new Error('overloaded')) }
    const { hub, traces } = hubWith([gateUse('decisions_a')], { decisions_a: 'on' }, failing)
    expect(await hub.consult('toolGate', gateInput)).toEqual([])
    expect(traces).toMatchObject([{ outcome: 'failed', detail: 'overloaded' }])
  })

  it('Shadow uses run detached, at most four per session (extra ones skipped), and their advice is dropped', async () => {
    const uses = Array.from({ length: MAX_SHADOW_SLOTS + 2 }, (_, index) => gateUse(`decisions_s${index}`))
    const modes = Object.fromEntries(uses.map((use) => [use.feature, 'shadow' as const]))
    const service = model(20)
    const { hub, traces } = hubWith(uses, modes, service)
    // Returns before any shadow use answers, with no advice.
    expect(await hub.consult('toolGate', gateInput)).toEqual([])
    expect(hub.slots.busy).toBe(MAX_SHADOW_SLOTS)
    expect(hub.slots.skipped).toBe(2)
    expect(traces.filter((trace) => trace.outcome === 'skipped')).toHaveLength(2)
    await hub.settled()
    expect(hub.slots.busy).toBe(0)
    const advised = traces.filter((trace) => trace.outcome === 'advice')
    expect(advised).toHaveLength(MAX_SHADOW_SLOTS)
    for (const trace of advised)
      expect(trace).toMatchObject({ mode: 'shadow', detail: expect.stringMatching(/shadow: dropped/) })
    // A slot frees when its use ends: the next seam runs again.
    await hub.consult('toolGate', gateInput)
    expect(hub.slots.busy).toBe(MAX_SHADOW_SLOTS)
    await hub.close()
  })

  it('cancelling the turn abstains at once', async () => {
    const { hub, traces } = hubWith([gateUse('decisions_a')], { decisions_a: 'on' }, model(undefined), 10_000)
    const controller = new AbortController()
    const pending = hub.consult('toolGate', gateInput, controller.signal)
    controller.abort()
    expect(await pending).toEqual([])
    expect(traces).toMatchObject([{ outcome: 'abstain', detail: 'cancelled with the turn' }])
  })
})
