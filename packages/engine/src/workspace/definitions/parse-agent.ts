import type { McpServerSettings } from '@z-engine/protocol'
import { parseModelRef } from '../../model/model-ref.js'
import { parseMcpJsonLayer } from '../settings/mcp-json-layer.js'
import { agentHooksConfig } from './agent-hooks.js'
import { FieldReader } from './fields.js'
import { readDefinitionText } from './frontmatter.js'
import type {
  AgentDefinition,
  AgentMcpServer,
  DefinitionIssueCode,
  DefinitionSource,
  DefinitionWarning,
} from './types.js'

/** The agent colours Claude Code 2.1.332 shows (any other `color` is left uncoloured). */
export const AGENT_COLORS = ['red', 'blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'cyan'] as const

/** A parsed definition, why the file was skipped, or `ignored` for a file that is not a definition. */
export type ParseResult<Definition> =
  | { ok: true; definition: Definition }
  | { ok: false; code: DefinitionIssueCode; error: string; line?: number }
  | { ok: 'ignored' }

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
  'skills',
  'hooks',
  'memory',
  'background',
  'effort',
  'initialPrompt',
  'mcpServers',
] as const

/** Fields kept and shown as written, which z-engine does not act on yet: said, never silently dropped. */
const KEPT_NOT_APPLIED = ['skills', 'memory', 'background', 'effort', 'initialPrompt'] as const

/** Agent names as Claude Code accepts them: letters, digits, `-` and `_`, starting with a letter or digit. */
const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/

/**
 * Parses an agent definition: markdown whose frontmatter describes the agent and whose body is its
 * prompt. Follows Claude Code: a file without frontmatter is not an agent (ignored silently); one
 * without a valid `name` or a `description` is skipped with a coded error.
 */
export function parseAgentDefinition(text: string, source: DefinitionSource): ParseResult<AgentDefinition> {
  const parsed = readDefinitionText(text, AGENT_FIELDS)
  const invalid = parsed.warnings.find((warning) => warning.code === 'frontmatter_invalid')
  if (invalid !== undefined) return { ok: false, code: 'frontmatter_invalid', error: invalid.message }
  if (!parsed.hasFrontmatter) return { ok: 'ignored' }
  return agentFromFields(parsed.data, parsed.body, source, parsed.warnings)
}

/**
 * An agent definition from its fields (the frontmatter, or an object defined in code) and its
 * prompt: the one reading of every field, for files and code alike.
 */
export function agentFromFields(
  data: Record<string, unknown>,
  body: string,
  source: DefinitionSource,
  warnings: DefinitionWarning[] = [],
): ParseResult<AgentDefinition> {
  const fields = new FieldReader(data, AGENT_FIELDS, warnings)
  const name = fields.string('name')
  if (name === undefined)
    return {
      ok: false,
      code: 'name_missing',
      error: 'has no "name" in its frontmatter, so it was skipped (Claude Code requires one)',
    }
  if (!AGENT_NAME.test(name))
    return {
      ok: false,
      code: 'name_invalid',
      error: `"name" (${name}) is not a valid agent name (letters, digits, - and _), so it was skipped`,
    }
  const description = fields.string('description')
  if (description === undefined)
    return {
      ok: false,
      code: 'description_missing',
      error: 'needs a "description" in its frontmatter (the model picks agents by it)',
    }
  const prompt = body.trim()
  if (prompt === '')
    return {
      ok: false,
      code: 'body_empty',
      error: "has an empty body; the body is the agent's system prompt",
    }

  const definition: AgentDefinition = {
    name,
    description,
    source,
    frontmatter: data,
    warnings: fields.warnings,
    prompt,
    model: modelOf(fields.string('model')),
    isolation: fields.oneOf('isolation', ['shared', 'worktree'] as const) ?? 'shared',
  }
  const tools = toolList(fields, 'tools')
  if (tools !== undefined) definition.tools = tools
  const disallowed = toolList(fields, 'disallowedTools')
  if (disallowed !== undefined) definition.disallowedTools = disallowed
  const mode = fields.permissionMode('permissionMode') ?? fields.permissionMode('mode')
  if (mode !== undefined) definition.permissionMode = mode
  const maxTurns = fields.positiveInteger('maxTurns')
  if (maxTurns !== undefined) definition.maxTurns = maxTurns
  // Claude Code keeps an agent whose colour it does not know and shows it uncoloured; we drop the
  // value the same way, with a warning naming it.
  const color = fields.oneOf('color', AGENT_COLORS)
  if (color !== undefined) definition.color = color
  const skills = fields.list('skills')
  if (skills !== undefined) definition.skills = skills
  if (fields.has('hooks')) definition.hooks = fields.raw('hooks')
  const hooks = agentHooksConfig(fields, source.path)
  if (hooks !== undefined) definition.hookConfig = hooks
  const memory = fields.oneOf('memory', ['user', 'project', 'local'] as const)
  if (memory !== undefined) definition.memory = memory
  const background = fields.boolean('background')
  if (background !== undefined) definition.background = background
  const effort = fields.oneOf('effort', ['low', 'medium', 'high', 'xhigh', 'max'] as const)
  if (effort !== undefined) definition.effort = effort
  const initialPrompt = fields.string('initialPrompt')
  if (initialPrompt !== undefined) definition.initialPrompt = initialPrompt
  if (!['inherit', 'main', 'fast', 'review'].includes(definition.model)) {
    const parsedModel = parseModelRef(definition.model)
    if (!parsedModel.ok)
      fields.warn(
        'model_unknown',
        `"model" ${definition.model} is not a model z-engine knows (${parsedModel.error.replace(/^Unknown model "[^"]*" is not in the model catalog\. ?/, '').split(' For a model')[0] || 'see docs/models.md'}); the agent runs on its caller's model instead`,
      )
  }
  const servers = agentMcpServers(fields)
  if (servers !== undefined) definition.mcpServers = servers
  for (const key of KEPT_NOT_APPLIED)
    if (fields.has(key))
      fields.warn('field_not_applied', `"${key}" is kept and shown but z-engine does not act on it yet`)
  return { ok: true, definition }
}

/** `inherit` and the role names in any case (`Inherit`); a model id as written. */
function modelOf(model: string | undefined): string {
  if (model === undefined) return 'inherit'
  const lower = model.toLowerCase()
  return ['inherit', 'main', 'fast', 'review', 'sonnet', 'opus', 'haiku'].includes(lower) ? lower : model
}

/** A tool list with `Task` (Claude Code's old name) read as `Agent`; patterns are kept whole. */
function toolList(fields: FieldReader, key: string): string[] | undefined {
  const list = fields.list(key)
  if (list === undefined) return undefined
  const tools = list.map((tool) =>
    tool === 'Task' || tool.startsWith('Task(') ? `Agent${tool.slice(4)}` : tool,
  )
  for (const tool of tools)
    if (key === 'tools' && /\(.*\)$/.test(tool))
      fields.warn(
        'tool_pattern',
        `"${tool}" offers the ${tool.slice(0, tool.indexOf('('))} tool; the pattern is not enforced for the agent, its calls go through the permission rules`,
      )
  return tools
}

/**
 * Claude Code's `mcpServers`: a list whose entries name a server configured in settings (`github`)
 * or define one inline (`{playwright: {command, args}}`), or one mapping of inline servers. Inline
 * servers are checked like `.mcp.json` entries; a broken one is a warning and left out.
 */
function agentMcpServers(fields: FieldReader): AgentMcpServer[] | undefined {
  if (!fields.has('mcpServers')) return undefined
  const raw = fields.raw('mcpServers')
  const items: unknown[] = Array.isArray(raw) ? raw : typeof raw === 'object' && raw !== null ? [raw] : [raw]
  const servers: AgentMcpServer[] = []
  for (const item of items) {
    if (typeof item === 'string' && item.trim() !== '') {
      servers.push({ name: item.trim() })
      continue
    }
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      fields.warn(
        'field_invalid',
        '"mcpServers" entries must be a server name or {name: {command | url, …}}; one was ignored',
      )
      continue
    }
    const layer = parseMcpJsonLayer('mcpServers', JSON.stringify({ mcpServers: item }))
    for (const notice of layer.notices)
      fields.warn('field_invalid', notice.message.replace(/^mcpServers: /, '"mcpServers": '))
    const valid = (layer.data.mcp?.servers ?? {}) as Record<string, McpServerSettings>
    for (const [name, server] of Object.entries(valid)) servers.push({ name, server })
  }
  return servers
}
