import { compareNames } from '../workspace/definitions/load.js'
import type { SkillDefinition } from '../workspace/definitions/types.js'

/** The skills section of the system prompt: one line per skill, loaded on demand with the Skill tool. */
export function renderSkillsList(skills: readonly SkillDefinition[]): string {
  // `disable-model-invocation: true` skills are the user's `/name` only; the model is not told of them.
  const offered = skills.filter((skill) => skill.disableModelInvocation !== true)
  if (offered.length === 0) return ''
  const lines = [...offered]
    .sort((a, b) => compareNames(a.name, b.name))
    .map((skill) => `- ${skill.name}: ${skill.description}`)
  return [
    '<skills>',
    'Load a skill with the Skill tool when the task matches its description.',
    ...lines,
    '</skills>',
  ].join('\n')
}
