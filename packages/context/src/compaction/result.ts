import type { CompactionMarker, CompactionTrigger, Message, TodoItem } from '@z-engine/protocol'
import type { LoadedSkill } from './skills.js'

/**
 * State that must not be paraphrased away by a summary: it is kept as data next to the summary and
 * rendered into the summary message, so both the engine and the model still have it.
 */
export interface CompactionState {
  todos: readonly TodoItem[]
  /** The approved plan, if any (plan mode). */
  plan?: string
  /** The skills loaded so far, with their instructions (they must survive the summary word for word). */
  loadedSkills: readonly LoadedSkill[]
}

/** The label the summary message starts with, so people and models can tell it apart. */
export const SUMMARY_LABEL = '[Summary of earlier conversation]'

/** Renders the summary message text: the label, the summary, then the structured state. */
export function renderSummaryText(summary: string, state: CompactionState): string {
  const parts = [SUMMARY_LABEL, summary.trim()]
  if (state.todos.length > 0) {
    const lines = state.todos.map((todo) => `- [${todo.status}] ${todo.content}`)
    parts.push(`<todos>\n${lines.join('\n')}\n</todos>`)
  }
  if (state.plan?.trim()) parts.push(`<plan>\n${state.plan.trim()}\n</plan>`)
  // Each skill's instructions word for word, in a form `loadedSkillsIn` finds again next time.
  for (const skill of state.loadedSkills)
    parts.push(`<loaded-skill name="${skill.name}">\n${skill.content}\n</loaded-skill>`)
  return parts.join('\n\n')
}

/** Builds the one user message that replaces the summarized history. */
export function buildSummaryMessage(id: string, summary: string, state: CompactionState): Message {
  return { id, role: 'user', content: [{ type: 'text', text: renderSummaryText(summary, state) }] }
}

/** Replaces the messages before `cut` by the summary message; the rest stays word for word. */
export function applySummary(messages: readonly Message[], cut: number, summaryMessage: Message): Message[] {
  return [summaryMessage, ...messages.slice(cut)]
}

/** Builds the "Context compacted" marker with the sizes before and after. */
export function compactionMarker(input: {
  id: string
  trigger: CompactionTrigger
  tokensBefore: number
  tokensAfter: number
  messagesSummarized: number
  focus?: string
}): CompactionMarker {
  const marker: CompactionMarker = {
    id: input.id,
    trigger: input.trigger,
    tokensBefore: Math.max(0, Math.round(input.tokensBefore)),
    tokensAfter: Math.max(0, Math.round(input.tokensAfter)),
    messagesSummarized: input.messagesSummarized,
  }
  const focus = input.focus?.trim()
  if (focus) marker.focus = focus
  return marker
}
