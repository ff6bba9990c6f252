import type { PermissionMode } from '@z-engine/protocol'
import { compareNames } from './load.js'
import { agentFromFields } from './parse-agent.js'
import type { AgentDefinition, LoadedDefinitions } from './types.js'

/**
 * A subagent defined in code (`OpenSessionOptions.agents`): the fields of an agent file's
 * frontmatter, with the system prompt as `prompt`. Read exactly as a file's fields are.
 */
export interface CodeAgentDefinition {
  /** When to use the agent: the model picks agents by it. */
  description: string
  /** The agent's system prompt. */
  prompt: string
  /** Allowed tools; absent means every tool the caller may offer. A trailing `*` matches by prefix. */
  tools?: string[]
  disallowedTools?: string[]
  /** `inherit` (default), a role (`main`, `fast`, `review`), an alias (`sonnet`) or a model reference. */
  model?: string
  /** The run's permission mode (Claude Code's `bypassPermissions` is `bypass`); absent falls back to the caller's. */
  permissionMode?: PermissionMode | 'bypassPermissions'
  /** Rounds per run; absent falls back to `agents.max_turns`. */
  maxTurns?: number
  isolation?: 'shared' | 'worktree'
  /** MCP servers started for this agent's runs only: names of configured servers, or inline ones. */
  mcpServers?: Array<string | Record<string, unknown>>
}

/**
 * The definitions of agents given in code, or one error listing every field that cannot be
 * honoured: code is checked strictly, since nobody reads a warning about it (a file's problems are
 * warnings, as Claude Code's are).
 */
export function codeAgentDefinitions(
  agents: Readonly<Record<string, CodeAgentDefinition>>,
): { ok: true; definitions: AgentDefinition[] } | { ok: false; error: string } {
  const definitions: AgentDefinition[] = []
  const problems: string[] = []
  for (const [name, agent] of Object.entries(agents)) {
    const { prompt, ...fields } = agent as CodeAgentDefinition & Record<string, unknown>
    const parsed = agentFromFields({ ...fields, name }, typeof prompt === 'string' ? prompt : '', {
      layer: 'code',
      path: `agents.${name}`,
    })
    if (parsed.ok === true) {
      for (const warning of parsed.definition.warnings) problems.push(`agents.${name}: ${warning.message}`)
      definitions.push(parsed.definition)
    } else if (parsed.ok === false) {
      problems.push(
        `agents.${name}: ${parsed.code === 'body_empty' ? 'needs a non-empty "prompt" (the agent\'s system prompt)' : parsed.error}`,
      )
    }
  }
  return problems.length === 0
    ? { ok: true, definitions }
    : {
        ok: false,
        error: `The agents defined in code have fields the engine cannot read or would ignore; fix them (same rules as agent files' frontmatter):\n  ${problems.join('\n  ')}`,
      }
}

/** The loaded definitions with the ones defined in code above them (a same-named one is shadowed). */
export function withCodeAgents(
  loaded: LoadedDefinitions<AgentDefinition>,
  code: readonly AgentDefinition[] | undefined,
): LoadedDefinitions<AgentDefinition> {
  if (code === undefined || code.length === 0) return loaded
  const names = new Set(code.map((agent) => agent.name))
  const kept = loaded.definitions.filter((agent) => !names.has(agent.name))
  const shadowed = loaded.definitions.filter((agent) => names.has(agent.name))
  return {
    definitions: [...kept, ...code].sort((a, b) => compareNames(a.name, b.name)),
    shadowed: [...loaded.shadowed, ...shadowed],
    errors: loaded.errors,
  }
}
