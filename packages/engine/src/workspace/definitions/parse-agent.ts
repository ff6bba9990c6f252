import { FieldReader, readFrontmatter } from './fields.js'
import type { AgentDefinition, DefinitionSource } from './types.js'

/** A parsed definition, or why the file was skipped. */
export type ParseResult<Definition> =
  | { ok: true; definition: Definition }
  | { ok: false; error: string; line?: number }

const AGENT_FIELDS = [
  'name',
  'description',
  'tools',
  'disallowedTools',
  'model',
  'permissionMode',
  'mode',
  'maxTurns',
  'isolation',
  'color',
] as const

/** Parses an agent definition: markdown whose frontmatter describes the agent and whose body is its prompt. */
export function parseAgentDefinition(
  text: string,
  source: DefinitionSource,
  fallbackName: string,
): ParseResult<AgentDefinition> {
  const parsed = readFrontmatter(
    text,
    'has no frontmatter; start the file with --- then name: and description: lines, then ---',
  )
  if (!parsed.ok) return parsed
  const fields = new FieldReader(parsed.data, AGENT_FIELDS)
  const description = fields.string('description')
  if (description === undefined)
    return { ok: false, error: 'needs a "description" in its frontmatter (the model picks agents by it)' }
  const name = fields.string('name') ?? fallbackName
  if (fields.string('name') === undefined)
    fields.warnings.push(`has no "name"; using the file name "${fallbackName}"`)
  const prompt = parsed.body.trim()
  if (prompt === '') return { ok: false, error: "has an empty body; the body is the agent's system prompt" }

  const definition: AgentDefinition = {
    name,
    description,
    source,
    frontmatter: parsed.data,
    warnings: fields.warnings,
    prompt,
    model: fields.string('model') ?? 'inherit',
    isolation: fields.oneOf('isolation', ['shared', 'worktree'] as const) ?? 'shared',
  }
  const tools = fields.list('tools')
  if (tools !== undefined) definition.tools = tools
  const disallowed = fields.list('disallowedTools')
  if (disallowed !== undefined) definition.disallowedTools = disallowed
  const mode = fields.permissionMode('permissionMode') ?? fields.permissionMode('mode')
  if (mode !== undefined) definition.permissionMode = mode
  const maxTurns = fields.positiveInteger('maxTurns')
  if (maxTurns !== undefined) definition.maxTurns = maxTurns
  return { ok: true, definition }
}
