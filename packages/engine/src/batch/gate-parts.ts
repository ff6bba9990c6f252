import type { Confinement, Decision } from '@z-engine/policy'
import type { SuggestedRule } from '@z-engine/protocol'
import type { Tool } from '@z-engine/tools'
import type { BatchDeps } from './batch-types.js'

/** The verdict on a call whose parts (Verify's checks) were decided one by one. */
export type PartsVerdict =
  | { kind: 'denied'; text: string }
  | {
      kind: 'decided'
      /** The call narrowed to the parts no rule denied. */
      input: Record<string, unknown>
      /** The kept parts' verdicts as one: ask (naming each part that asks) when any asks, else allow. */
      verdict: Decision
      /** Which parts were left out and why, for the call's result. */
      note?: string
      /**
       * Some parts ask and others are allowed: when the user denies the ask, the allowed parts
       * still run (this input), and the note says which were denied.
       */
      ifDenied?: { input: Record<string, unknown>; asked: string[]; confinement?: Confinement }
    }

/**
 * Decides each part of a call on its own, so one check an allow rule covers runs while another
 * asks or is denied (issue 39: a headless Verify no longer fails whole because the build asks).
 * Undefined when the tool has no parts or only one (the call's own action decides it).
 */
export function decideParts(
  tool: Tool,
  input: Record<string, unknown>,
  deps: BatchDeps,
): PartsVerdict | undefined {
  let split: ReturnType<NonNullable<Tool['parts']>>
  try {
    split = tool.parts?.(input, deps.actionCtx())
  } catch {
    return undefined
  }
  if (split === undefined || split.parts.length < 2) return undefined
  const decided = split.parts.map((part) => ({ part, verdict: deps.decide(tool.name, part.action) }))
  const named = (list: typeof decided): string =>
    list.map(({ part, verdict }) => `${part.title}: ${verdict.reason}`).join('; ')
  const denied = decided.filter(({ verdict }) => verdict.decision === 'deny')
  const kept = decided.filter(({ verdict }) => verdict.decision !== 'deny')
  if (kept.length === 0) return { kind: 'denied', text: named(denied) }
  const asked = kept.filter(({ verdict }) => verdict.decision === 'ask')
  const allowed = kept.filter(({ verdict }) => verdict.decision === 'allow')
  const ids = (list: typeof decided) => list.map(({ part }) => part.id)
  const note = denied.length > 0 ? `Not run, permission denied: ${named(denied)}` : undefined
  const base = {
    kind: 'decided' as const,
    input: split.only(ids(kept)),
    ...(note !== undefined ? { note } : {}),
  }
  const confinement = combinedConfinement(allowed.map(({ verdict }) => verdict.confinement))
  if (asked.length === 0) {
    const verdict: Decision = {
      decision: 'allow',
      reason: named(allowed),
      ...(confinement !== undefined ? { confinement } : {}),
    }
    return { ...base, verdict }
  }
  const suggestion = combinedSuggestion(asked.map(({ verdict }) => verdict.suggestion))
  const verdict: Decision = {
    decision: 'ask',
    reason: named(asked),
    ...(suggestion !== undefined ? { suggestion } : {}),
  }
  return {
    ...base,
    verdict,
    ...(allowed.length > 0
      ? {
          ifDenied: {
            input: split.only(ids(allowed)),
            asked: asked.map(({ part }) => part.title),
            ...(confinement !== undefined ? { confinement } : {}),
          },
        }
      : {}),
  }
}

/** One confinement for allowed parts run by one call: read-only only when every part was proven so. */
function combinedConfinement(kinds: Array<Confinement | undefined>): Confinement | undefined {
  const distinct = new Set(kinds)
  if (distinct.size === 1) return kinds[0]
  if (distinct.has('rule')) return 'rule'
  return distinct.has('write') ? 'write' : undefined
}

/** "Always allow" grants each asked part's rule, or none when one part has no rule to offer. */
function combinedSuggestion(suggestions: Array<SuggestedRule | undefined>): SuggestedRule | undefined {
  const rules: string[] = []
  let scope: SuggestedRule['scope'] = 'project'
  for (const suggestion of suggestions) {
    if (suggestion === undefined) return undefined
    if (suggestion.scope === 'session') scope = 'session'
    for (const rule of suggestion.rules ?? [suggestion.rule]) if (!rules.includes(rule)) rules.push(rule)
  }
  const [first] = rules
  if (first === undefined) return undefined
  return rules.length === 1 ? { rule: first, scope } : { rule: first, rules, scope }
}
