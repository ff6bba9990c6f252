import type { SkillPort } from '@z-engine/tools'
import { substituteArguments } from '../commands/arguments.js'
import type { SkillDefinition } from './types.js'

/**
 * The Skill tool's port over loaded skills: `list` for its description, `load` for a skill's
 * instructions (arguments substituted like a command's, or appended) and its folder.
 */
export function createSkillPort(skills: () => readonly SkillDefinition[]): SkillPort {
  return {
    list: () =>
      modelInvocable(skills()).map((skill) => ({ name: skill.name, description: skill.description })),
    async load(name, args) {
      // `disable-model-invocation: true` (Claude Code): only the user runs it, as `/name`.
      const skill = modelInvocable(skills()).find((candidate) => candidate.name === name)
      if (skill === undefined) return undefined
      const extras = {
        skillDir: skill.baseDir,
        ...(skill.argumentNames === undefined ? {} : { names: skill.argumentNames }),
      }
      return { content: substituteArguments(skill.body, args ?? '', extras), baseDir: skill.baseDir }
    },
  }
}

function modelInvocable(skills: readonly SkillDefinition[]): SkillDefinition[] {
  return skills.filter((skill) => skill.disableModelInvocation !== true)
}
