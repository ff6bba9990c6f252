import type { DecisionTrace } from '@z-engine/protocol'
import type { DecisionHub } from './hub.js'
import { USES } from './registry.js'

/** Traces `/decisions` lists, newest last. */
export const DECISIONS_SHOWN = 30

/**
 * `/decisions`: each feature's mode and seam, the shadow slots (busy, skipped), and the latest
 * traces. With every feature off it says how to turn one on.
 */
export function renderDecisions(hub: DecisionHub | undefined): string {
  const lines: string[] = ['**Decision features** (`[experimental]`, off / shadow / on)', '']
  for (const use of USES) {
    const mode = hub?.mode(use.feature) ?? 'off'
    lines.push(`- \`${use.feature}\` — ${mode} — ${use.seam}: ${use.summary}`)
  }
  if (hub === undefined) {
    lines.push(
      '',
      'Every feature is off. Set one in settings.toml, e.g. `[experimental]` `decisions_review_call = "shadow"`.',
    )
    return lines.join('\n')
  }
  lines.push('', `Shadow slots: ${hub.slots.busy} busy, ${hub.slots.skipped} use(s) skipped so far.`)
  const traces = hub.traces().slice(-DECISIONS_SHOWN)
  lines.push('', traces.length === 0 ? 'No decisions yet.' : `**Latest ${traces.length} decisions**`, '')
  for (const trace of traces) lines.push(traceLine(trace))
  return lines.join('\n').trimEnd()
}

function traceLine(trace: DecisionTrace): string {
  const detail = trace.detail !== undefined ? ` — ${trace.detail}` : ''
  return `- ${trace.seam} · \`${trace.feature}\` (${trace.mode}): ${trace.outcome} in ${trace.durationMs} ms${detail}`
}
