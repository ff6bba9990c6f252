import type { SkillDefinition } from '../workspace/definitions/types.js'

/** The skills section of the system prompt: one line per skill, loaded on demand with the Skill tool. */
export function renderSkillsList(skills: readonly SkillDefinition[]): string {
  if (skills.length === 0) return ''
  const lines = [...skills]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((skill) => `- ${skill.name}: ${skill.description}`)
  return [
    '<skills>',
    'Load a skill with the Skill tool when the task matches its description.',
    ...lines,
    '</skills>',
  ].join('\n')
}
