import type { Message } from '@z-engine/protocol'
import type { DecisionHub } from '../hub.js'

/** Turn start: reminders for the opening message, from every on use in order (spec 000 table). */
export async function turnStartReminders(
  hub: DecisionHub | undefined,
  prompt: string,
  history: readonly Message[],
  signal: AbortSignal,
): Promise<string[]> {
  if (!hub?.joins('turnStart')) return []
  const advice = await hub.consult('turnStart', { prompt, history }, signal)
  return advice.flatMap((one) => one.reminders)
}
