import { FieldReader } from './fields.js'
import { readDefinitionText } from './frontmatter.js'
import type { ParseResult } from './parse-agent.js'
import type { CommandDefinition, DefinitionSource, SkillDefinition } from './types.js'

const COMMAND_FIELDS = [
  'description',
  'argument-hint',
  'allowed-tools',
  'model',
  'name',
  'disable-model-invocation',
  'context',
  'agent',
  'hooks',
] as const
const SKILL_FIELDS = [
  'name',
  'description',
  'allowed-tools',
  'license',
  'metadata',
  'version',
  'argument-hint',
  'arguments',
  'model',
  'disable-model-invocation',
  'user-invocable',
  'paths',
  'context',
  'agent',
  'hooks',
  'when_to_use',
  'effort',
  'shell',
  'disallowed-tools',
] as const

/** Skill fields Claude Code documents that z-engine keeps and lists but does not act on (warned). */
const SKILL_KEPT_NOT_APPLIED = ['effort', 'shell', 'disallowed-tools'] as const

/** A skill name Claude Code takes as written: lowercase letters, digits, `-` and `_`, at most 64. */
const SKILL_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/

/** Parses a command template; the name comes from the file path (`git/commit.md` → `git:commit`). */
export function parseCommandDefinition(
  text: string,
  source: DefinitionSource,
  name: string,
): ParseResult<CommandDefinition> {
  const parsed = readDefinitionText(text, COMMAND_FIELDS)
  const fields = new FieldReader(parsed.data, COMMAND_FIELDS, parsed.warnings)
  const body = parsed.body.trim()
  if (body === '')
    return {
      ok: false,
      code: 'body_empty',
      error: 'has an empty body; the body is the prompt the command sends',
    }
  const definition: CommandDefinition = {
    name,
    // Claude Code falls back to the first line of the body; so do we, so a bare file still lists well.
    description: fields.string('description') ?? firstLine(body),
    source,
    frontmatter: parsed.data,
    warnings: fields.warnings,
    body,
    allowedTools: fields.list('allowed-tools') ?? [],
  }
  const hint = fields.text('argument-hint')
  if (hint !== undefined) definition.argumentHint = hint
  const model = fields.string('model')
  if (model !== undefined) definition.model = model
  readShared(fields, definition)
  return { ok: true, definition }
}

/**
 * Parses a skill's SKILL.md; `folderName` is the skill's folder, its default name. As in Claude
 * Code a SKILL.md without frontmatter still loads (name from the folder, description from the
 * first paragraph).
 */
export function parseSkillDefinition(
  text: string,
  source: DefinitionSource,
  folderName: string,
  baseDir: string,
): ParseResult<SkillDefinition> {
  const parsed = readDefinitionText(text, SKILL_FIELDS)
  const fields = new FieldReader(parsed.data, SKILL_FIELDS, parsed.warnings)
  const body = parsed.body.trim()
  const description = fields.string('description') ?? firstParagraph(body)
  if (description === '')
    return {
      ok: false,
      code: 'description_missing',
      error: 'has no "description" and no text to take one from (the model loads skills by it)',
    }
  // Claude Code names a skill's command after its folder when `name` is not a command name
  // (`name: Agent Development` in `agent-development/` is `/agent-development`).
  const written = fields.string('name')
  let name = written ?? folderName
  if (written !== undefined && !SKILL_NAME.test(written)) {
    name = folderName
    fields.warn(
      'name_invalid',
      `"name" (${written}) is not a command name (lowercase letters, digits and -), so the skill is named after its folder: ${folderName}`,
    )
  } else if (name !== folderName)
    fields.warn('name_mismatch', `"name" (${name}) differs from its folder name (${folderName})`)
  const definition: SkillDefinition = {
    name,
    description,
    source,
    frontmatter: parsed.data,
    warnings: fields.warnings,
    body,
    baseDir,
    allowedTools: fields.list('allowed-tools') ?? [],
    userInvocable: fields.boolean('user-invocable') ?? true,
  }
  const hint = fields.text('argument-hint')
  if (hint !== undefined) definition.argumentHint = hint
  const whenToUse = fields.text('when_to_use')
  // Claude Code lists a skill to the model as `<description> - <when_to_use>`.
  if (whenToUse !== undefined) definition.description = `${definition.description} - ${whenToUse}`
  for (const key of SKILL_KEPT_NOT_APPLIED)
    if (fields.has(key))
      fields.warn('field_not_applied', `"${key}" is kept and shown but z-engine does not act on it yet`)
  const argumentNames = fields.list('arguments')
  if (argumentNames !== undefined) definition.argumentNames = argumentNames
  const model = fields.string('model')
  if (model !== undefined) definition.model = model
  const license = fields.string('license')
  if (license !== undefined) definition.license = license
  if (fields.has('metadata')) definition.metadata = fields.raw('metadata')
  const paths = fields.list('paths')
  if (paths !== undefined) definition.paths = paths
  readShared(fields, definition)
  return { ok: true, definition }
}

/** The fields commands and skills share with Claude Code: model invocation, forked context, hooks. */
function readShared(fields: FieldReader, definition: CommandDefinition | SkillDefinition): void {
  const disable = fields.boolean('disable-model-invocation')
  if (disable !== undefined) definition.disableModelInvocation = disable
  const context = fields.oneOf('context', ['fork'] as const)
  if (context !== undefined) definition.context = context
  const agent = fields.string('agent')
  if (agent !== undefined) definition.agent = agent
  if (fields.has('hooks')) {
    definition.hooks = fields.raw('hooks')
    fields.warn('field_not_applied', '"hooks" is kept and shown but z-engine does not act on it yet')
  }
  if (context !== undefined || agent !== undefined)
    fields.warn(
      'field_not_applied',
      '"context"/"agent" are kept and shown but z-engine runs the prompt in the current conversation',
    )
}

function firstLine(body: string): string {
  const line = body
    .split('\n', 1)[0]!
    .replace(/^#+\s*/, '')
    .trim()
  return line.length > 100 ? `${line.slice(0, 99)}…` : line
}

function firstParagraph(body: string): string {
  const paragraph = body
    .split(/\n\s*\n/)
    .map((block) => block.replace(/^#+\s.*$/gm, '').trim())
    .find((block) => block !== '')
  if (paragraph === undefined) return ''
  const text = paragraph.replace(/\s+/g, ' ')
  return text.length > 250 ? `${text.slice(0, 249)}…` : text
}
