import type { SeamSession } from '../seam-session.js'

/**
 * Turn end, in the background: the user's tone (`turnToneJudged`) and a suggested next prompt
 * (`suggested`, kept until `resolveSuggestion`). Nothing waits for it; the next turn does not.
 */
export function judgeTurnInBackground(
  core: SeamSession,
  input: { turnId: string; prompt: string; finalText: string },
): void {
  const hub = core.services.decisions
  if (!hub?.joins('turnEnd')) return
  void hub
    .consult('turnEnd', input)
    .then(async (advice) => {
      const tone = advice.find((one) => one.tone !== undefined)?.tone
      if (tone !== undefined) core.publish({ type: 'turnToneJudged', turnId: input.turnId, tone })
      const text = advice.find((one) => one.suggestion !== undefined)?.suggestion
      if (text !== undefined) {
        const suggestion = { id: core.newId('sg'), kind: 'prompt', text }
        hub.offer(suggestion)
        core.publish({ type: 'suggested', suggestion })
      }
    })
    .catch(() => {})
}
