import { FieldReader, readFrontmatter } from './fields.js'
import type { ParseResult } from './parse-agent.js'
import type { CommandDefinition, DefinitionSource, SkillDefinition } from './types.js'

const COMMAND_FIELDS = [
  'description',
  'argument-hint',
  'allowed-tools',
  'model',
  'name',
  'disable-model-invocation',
] as const
const SKILL_FIELDS = ['name', 'description', 'allowed-tools', 'license', 'metadata', 'version'] as const

/** Parses a command template; the name comes from the file path (`git/commit.md` → `git:commit`). */
export function parseCommandDefinition(
  text: string,
  source: DefinitionSource,
  name: string,
): ParseResult<CommandDefinition> {
  const parsed = readFrontmatter(text)
  if (!parsed.ok) return parsed
  const fields = new FieldReader(parsed.data, COMMAND_FIELDS)
  const body = parsed.body.trim()
  if (body === '') return { ok: false, error: 'has an empty body; the body is the prompt the command sends' }
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
  const hint = fields.string('argument-hint')
  if (hint !== undefined) definition.argumentHint = hint
  const model = fields.string('model')
  if (model !== undefined) definition.model = model
  return { ok: true, definition }
}

/** Parses a skill's SKILL.md; `folderName` is the skill's folder, its default name. */
export function parseSkillDefinition(
  text: string,
  source: DefinitionSource,
  folderName: string,
  baseDir: string,
): ParseResult<SkillDefinition> {
  const parsed = readFrontmatter(
    text,
    'SKILL.md has no frontmatter; start it with --- then name: and description: lines, then ---',
  )
  if (!parsed.ok) return parsed
  const fields = new FieldReader(parsed.data, SKILL_FIELDS)
  const description = fields.string('description')
  if (description === undefined)
    return { ok: false, error: 'needs a "description" in its frontmatter (the model loads skills by it)' }
  const name = fields.string('name') ?? folderName
  if (name !== folderName)
    fields.warnings.push(`"name" (${name}) differs from its folder name (${folderName})`)
  return {
    ok: true,
    definition: {
      name,
      description,
      source,
      frontmatter: parsed.data,
      warnings: fields.warnings,
      body: parsed.body.trim(),
      baseDir,
      allowedTools: fields.list('allowed-tools') ?? [],
    },
  }
}

function firstLine(body: string): string {
  const line = body
    .split('\n', 1)[0]!
    .replace(/^#+\s*/, '')
    .trim()
  return line.length > 100 ? `${line.slice(0, 99)}…` : line
}
