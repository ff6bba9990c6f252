import type { CodeAgentDefinition } from '../workspace/definitions/code-agents.js'
import { engineMode, modelRef } from './sdk-options.js'
import type { AgentDefinition, AgentMcpServerSpec, Options } from './sdk-types.js'
import { engineRule, engineToolName } from './tool-names.js'

/** The Claude Agent SDK's agent fields the engine cannot honour, with what to do instead. */
const NOT_HONOURED: Readonly<Record<string, string>> = {
  criticalSystemReminder_EXPERIMENTAL: 'put the reminder in the agent’s prompt',
  skills: 'skills are not preloaded into a subagent; name the skill in the agent’s prompt',
  initialPrompt: 'the main agent is the engine’s; put the text in the query’s prompt',
  autoCompactWindow: 'subagents compact at the session’s threshold (settings compaction.at_percent)',
  background: 'the model chooses with the Agent tool’s run_in_background',
  omitClaudeMd: 'subagents read the project’s instructions as the main agent does',
  memory: 'agent memory folders are not loaded',
  effort: 'use the query’s maxThinkingTokens',
  observer: 'observer agents are not run',
  observerMessage: 'observer agents are not run',
}

/**
 * `options.agents` as the engine's subagents defined in code: Claude Code's tool names become the
 * engine's (`Task` → `Agent`), a model id or alias becomes a model reference (`inherit` stays), and
 * `auto` mode is `acceptEdits` as for the query. A field the engine cannot honour, `dontAsk` mode or
 * an in-process server in an agent's `mcpServers` fails the query with every such field named.
 */
export function engineAgentsOf(options: Options): Record<string, CodeAgentDefinition> | undefined {
  if (options.agents === undefined) return undefined
  const agents: Record<string, CodeAgentDefinition> = {}
  const refused: string[] = []
  for (const [name, agent] of Object.entries(options.agents)) {
    for (const [key, value] of Object.entries(agent))
      if (value !== undefined && NOT_HONOURED[key] !== undefined)
        refused.push(`options.agents.${name}.${key}: ${NOT_HONOURED[key]}`)
    if (agent.permissionMode === 'dontAsk')
      refused.push(
        `options.agents.${name}.permissionMode: dontAsk applies to the whole query; set options.permissionMode instead`,
      )
    const servers = agent.mcpServers?.map((spec) => serverSpec(spec, name, refused))
    agents[name] = definitionOf(agent, servers)
  }
  if (refused.length > 0)
    throw new Error(
      `@z-engine/engine/claude-agent-sdk cannot honour ${refused.length === 1 ? 'this agent field' : 'these agent fields'}; remove ${refused.length === 1 ? 'it' : 'them'} or do this instead:\n  ${refused.join('\n  ')}`,
    )
  return agents
}

function definitionOf(
  agent: AgentDefinition,
  servers: Array<string | Record<string, unknown>> | undefined,
): CodeAgentDefinition {
  const definition: CodeAgentDefinition = { description: agent.description, prompt: agent.prompt }
  if (agent.tools !== undefined) definition.tools = agent.tools.map(engineToolName)
  if (agent.disallowedTools !== undefined) definition.disallowedTools = agent.disallowedTools.map(engineRule)
  if (agent.model !== undefined) definition.model = agentModel(agent.model)
  if (agent.maxTurns !== undefined) definition.maxTurns = agent.maxTurns
  const mode = agent.permissionMode
  if (mode !== undefined && mode !== 'dontAsk') definition.permissionMode = engineMode(mode)
  if (servers !== undefined) definition.mcpServers = servers
  return definition
}

/** `inherit` and Claude Code's aliases as the engine's agent definitions read them; an id as a reference. */
function agentModel(model: string): string {
  const lower = model.trim().toLowerCase()
  if (['inherit', 'sonnet', 'opus', 'haiku'].includes(lower)) return lower
  return modelRef(model)
}

/** A server name as given; inline servers as `.mcp.json` entries (an in-process one is refused). */
function serverSpec(
  spec: AgentMcpServerSpec,
  agent: string,
  refused: string[],
): string | Record<string, unknown> {
  if (typeof spec === 'string') return spec
  const inline: Record<string, unknown> = {}
  for (const [server, config] of Object.entries(spec)) {
    if (config.type === 'sdk') {
      refused.push(
        `options.agents.${agent}.mcpServers.${server}: an in-process (createSdkMcpServer) server goes in options.mcpServers; name it here instead`,
      )
      continue
    }
    inline[server] = config
  }
  return inline
}
