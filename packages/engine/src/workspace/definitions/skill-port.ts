import type { SkillPort } from '@z-engine/tools'
import { substituteArguments } from '../commands/arguments.js'
import type { SkillDefinition } from './types.js'

/**
 * The Skill tool's port over loaded skills: `list` for its description, `load` for a skill's
 * instructions (arguments substituted like a command's, or appended) and its folder.
 */
export function createSkillPort(skills: () => readonly SkillDefinition[]): SkillPort {
  return {
    list: () => skills().map((skill) => ({ name: skill.name, description: skill.description })),
    async load(name, args) {
      const skill = skills().find((candidate) => candidate.name === name)
      if (skill === undefined) return undefined
      return { content: substituteArguments(skill.body, args ?? ''), baseDir: skill.baseDir }
    },
  }
}
