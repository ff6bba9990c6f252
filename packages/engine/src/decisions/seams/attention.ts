import type { SeamSession } from '../seam-session.js'

/**
 * Attention, in the background: how urgently an approval, question or plan waiting on the user
 * needs them (`urgencyScored`). The wait itself never depends on it.
 */
export function scoreAttentionInBackground(
  core: SeamSession,
  item: { itemId: string; kind: 'approval' | 'question' | 'plan'; title: string },
): void {
  const hub = core.services.decisions
  if (!hub?.joins('attention')) return
  void hub
    .consult('attention', item)
    .then((advice) => {
      const [first] = advice
      if (first === undefined) return
      core.publish({
        type: 'urgencyScored',
        urgency: {
          itemId: item.itemId,
          kind: item.kind,
          score: first.score,
          ...(first.reason !== '' ? { reason: first.reason } : {}),
        },
      })
    })
    .catch(() => {})
}
