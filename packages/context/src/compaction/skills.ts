import type { Message } from '@z-engine/protocol'

/** A skill the agent loaded: its name and the instructions the Skill tool returned. */
export interface LoadedSkill {
  name: string
  content: string
}

/** The tool whose results are skill instructions (never cleared, carried over summaries). */
export const SKILL_TOOL_NAME = 'Skill'

const CARRIED = /<loaded-skill name="([^"]+)">\n([\s\S]*?)\n<\/loaded-skill>/g

/**
 * The skills loaded in `messages` (spec 003: loaded skills survive a summary): every successful
 * Skill call with its instructions, plus skills an earlier summary message already carried. A skill
 * loaded twice keeps its latest instructions, in the order first loaded. Pure.
 */
export function loadedSkillsIn(messages: readonly Message[]): LoadedSkill[] {
  const found = new Map<string, string>()
  const calls = new Map<string, string>()
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === 'text') {
        for (const match of block.text.matchAll(CARRIED)) found.set(match[1]!, match[2]!)
      } else if (block.type === 'tool_use' && block.name === SKILL_TOOL_NAME) {
        const skill = (block.input as { skill?: unknown }).skill
        if (typeof skill === 'string' && skill.trim() !== '')
          calls.set(block.id, skill.trim().replace(/^\//, ''))
      } else if (block.type === 'tool_result' && !block.isError) {
        const name = calls.get(block.toolUseId)
        if (name === undefined) continue
        const text = block.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n')
        if (text.startsWith('[cleared')) continue
        found.set(name, text.trim())
      }
    }
  }
  return [...found].map(([name, content]) => ({ name, content }))
}

/** Merges skill lists: later entries replace earlier ones of the same name. */
export function mergeLoadedSkills(...lists: readonly (readonly LoadedSkill[])[]): LoadedSkill[] {
  const merged = new Map<string, string>()
  for (const list of lists) for (const skill of list) merged.set(skill.name, skill.content)
  return [...merged].map(([name, content]) => ({ name, content }))
}
