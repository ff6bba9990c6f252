import { toolDescription } from '@z-engine/prompts'
import { guardPort, portMissing } from '../port-results.js'
import { errorResult, textResult } from '../results.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'

/** Skill's input (Claude Code's shape). */
export interface SkillInput {
  skill: string
  args?: string
}

const NAME = 'Skill'

/** Skill: loads a skill's instructions through the SkillPort. */
export const skillTool: Tool<SkillInput> = {
  name: NAME,
  description: () => toolDescription(NAME),
  inputSchema: {
    type: 'object',
    properties: {
      skill: { type: 'string', minLength: 1, description: 'The skill name, e.g. "pdf" or "release-notes".' },
      args: { type: 'string', description: 'Optional arguments for the skill.' },
    },
    required: ['skill'],
    additionalProperties: false,
  },
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  action: (input, ctx) => actionFor(NAME, input, ctx),
  title: (input) => `Skill ${typeof input.skill === 'string' ? skillName(input.skill) : ''}`.trimEnd(),
  preview: async () => undefined,
  async call(input, ctx) {
    const skills = ctx.ports.skills
    if (skills === undefined) return portMissing(NAME, 'skill catalog')
    const name = skillName(input.skill)
    return guardPort(NAME, async () => {
      const loaded = await skills.load(name, input.args)
      if (loaded === undefined) {
        const available = skills.list().map((skill) => skill.name)
        return errorResult(
          'unknown_skill',
          available.length === 0
            ? `No skill '${name}'; this session has no skills.`
            : `No skill '${name}'; available: ${available.join(', ')}.`,
        )
      }
      return textResult(`Base directory for this skill: ${loaded.baseDir}\n\n${loaded.content}`, {
        details: { skill: name, baseDir: loaded.baseDir },
      })
    })
  },
}

// Models often write a skill the way a user invokes it ("/commit").
function skillName(raw: string): string {
  return raw.trim().replace(/^\//, '')
}
