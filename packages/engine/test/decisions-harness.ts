import type { ModelRequest } from '../src/index.js'
import { ScriptedClient, type ScriptSource, type ScriptStep } from '../src/testing.js'
import { engineWith } from './engine-harness.js'

/** What the scripted decision model answers one feature: a JSON answer, a failure, or silence. */
export type DecisionAnswer = Record<string, unknown> | 'fail' | 'hang'

/** Every registered feature (kept in step with USES by the all-on / all-shadow tests). */
export const ALL_FEATURES = [
  'decisions_turn_brief',
  'decisions_pressure_triage',
  'decisions_screen_request',
  'decisions_review_call',
  'decisions_call_notes',
  'decisions_relevance',
  'decisions_stop_review',
  'decisions_answer_from_history',
  'decisions_route',
  'decisions_completion_claims',
  'decisions_check_select',
  'decisions_turn_tone',
  'decisions_next_step',
  'decisions_attention',
  'decisions_task_view',
] as const

/** The feature a decision prompt is for (its first line). */
export function featureOf(request: ModelRequest): string {
  const first = request.messages[0]?.content[0]
  const text = first?.type === 'text' ? first.text : ''
  return /^Decision: (\S+)/.exec(text)?.[1] ?? ''
}

/**
 * An engine whose main model is `script` and whose decision model (`decider/…`) answers each
 * feature from `answers` (a feature not listed abstains with `{}`). Mocks only at the model boundary.
 * A request's `model` is the reference it was made for (`scripted` for `scripted:` ones); references
 * in `unreachable` fail to resolve, as a provider without credentials does.
 */
export async function decisionEngine(
  script: ScriptSource,
  answers: (feature: string, request: ModelRequest) => DecisionAnswer | undefined,
  unreachable: readonly string[] = [],
) {
  const decider = new ScriptedClient((request): ScriptStep | Promise<ScriptStep> => {
    const answer = answers(featureOf(request), request) ?? {}
    if (answer === 'fail')
      return { error: { kind: 'invalid_request', message: 'the decision model is down' } }
    if (answer === 'hang') return new Promise<ScriptStep>(() => {})
    return { blocks: [{ type: 'text', text: JSON.stringify(answer) }] }
  })
  const main = new ScriptedClient(script)
  const t = await engineWith([], undefined, {
    clientFactory: {
      createClient: (ref) =>
        unreachable.includes(ref)
          ? { ok: false, error: `no credentials for ${ref}` }
          : ref.startsWith('decider/')
            ? { ok: true, client: decider, provider: 'scripted', model: 'decider' }
            : {
                ok: true,
                client: main,
                provider: 'scripted',
                model: ref.startsWith('scripted:') ? 'scripted' : ref,
              },
    },
  })
  return { ...t, client: main, decider }
}

/**
 * Settings with every feature in `mode` and the scripted decision model. Its limit is a ceiling
 * for a loaded machine (the scripted model answers at once); a test of a silent model passes a short one.
 */
export function allFeatures(mode: 'off' | 'shadow' | 'on', timeoutMs = 30_000) {
  return {
    experimental: Object.fromEntries(ALL_FEATURES.map((feature) => [feature, mode])),
    decisions: { model: 'decider/x', timeout_ms: timeoutMs },
  }
}
