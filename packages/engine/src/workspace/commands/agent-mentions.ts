import { renderReminder } from '@z-engine/prompts'

const MENTION = /(?:^|[\s(])@agent-([A-Za-z0-9][A-Za-z0-9_-]*)/g

/** The known agent types mentioned as `@agent-<name>` in a message, in order, each once. */
export function mentionedAgentTypes(text: string, knownTypes: readonly string[]): string[] {
  const found: string[] = []
  for (const match of text.matchAll(MENTION)) {
    const name = match[1]!
    if (knownTypes.includes(name) && !found.includes(name)) found.push(name)
  }
  return found
}

/** One `<system-reminder>` per mentioned known agent type, telling the model to use the Agent tool. */
export function agentMentionReminders(text: string, knownTypes: readonly string[]): string[] {
  return mentionedAgentTypes(text, knownTypes).map((agentType) =>
    renderReminder('agentMention', { agentType }),
  )
}
