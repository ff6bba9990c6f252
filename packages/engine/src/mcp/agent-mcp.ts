import type { ArgvConfiner } from '@z-engine/host'
import type { McpServerSettings } from '@z-engine/protocol'
import type { AgentDefinition } from '../workspace/definitions/types.js'
import { McpManager } from './mcp-manager.js'
import { resolveServerSpecs } from './server-spec.js'

/** What an agent's own MCP servers are resolved against. */
export interface AgentMcpContext {
  /** The session's effective `[mcp.servers]` (already trust-gated). */
  servers: Readonly<Record<string, McpServerSettings>>
  /** Servers the session itself runs: a reference to one of them shares it (its tools are offered). */
  sessionServers: readonly string[]
  trusted: boolean
  projectRoot: string
  env: Readonly<Record<string, string | undefined>>
  childEnv: Readonly<Record<string, string>>
  /** Puts its stdio servers into the session's sandbox, as the session's own (issue 34). */
  confine?: ArgvConfiner
  notice(level: 'info' | 'warning', message: string): void
}

/**
 * The MCP manager for one run of an agent whose definition names `mcpServers` (Claude Code's
 * field), or undefined when it names none that need starting. A name the session already runs is
 * shared; a name settings define but the session does not run (`enabled = false`) is started; an
 * inline definition is started, except one from a project's definition file in an untrusted
 * workspace (a notice names it). Unknown names are a notice. The caller starts and closes it.
 */
export function createAgentMcp(
  definition: AgentDefinition,
  context: AgentMcpContext,
): McpManager | undefined {
  const wanted: Record<string, McpServerSettings> = {}
  const fromProject = definition.source.layer === 'project' || definition.source.layer === 'projectClaude'
  const withheld: string[] = []
  for (const entry of definition.mcpServers ?? []) {
    if (entry.server === undefined) {
      if (context.sessionServers.includes(entry.name)) continue
      const configured = context.servers[entry.name]
      if (configured === undefined) {
        context.notice(
          'warning',
          `Agent ${definition.name} names MCP server ${entry.name}, which no settings define; it runs without it.`,
        )
        continue
      }
      wanted[entry.name] = { ...configured, enabled: true }
      continue
    }
    if (context.sessionServers.includes(entry.name)) {
      context.notice(
        'warning',
        `Agent ${definition.name} defines MCP server ${entry.name}, a name the session's own server has; the agent uses the session's.`,
      )
      continue
    }
    if (fromProject && !context.trusted) {
      withheld.push(entry.name)
      continue
    }
    wanted[entry.name] = entry.server
  }
  if (withheld.length > 0)
    context.notice(
      'warning',
      `Agent ${definition.name}'s MCP server${withheld.length > 1 ? 's' : ''} ${withheld.join(', ')} ${withheld.length > 1 ? 'are' : 'is'} withheld until you trust the workspace (it is defined in ${definition.source.path}).`,
    )
  if (Object.keys(wanted).length === 0) return undefined
  const { specs, problems } = resolveServerSpecs(wanted, context.env, context.projectRoot)
  for (const problem of problems)
    context.notice(
      'warning',
      `Agent ${definition.name}'s MCP server ${problem.server}: ${problem.field}: ${problem.message}${problem.severity === 'error' ? '; it is not started' : ''}.`,
    )
  if (specs.length === 0) return undefined
  return new McpManager({
    specs,
    baseEnv: context.childEnv,
    ...(context.confine ? { confine: context.confine } : {}),
    // Notices go to the session; a run has no reminder queue, so deferral and list-change reminders
    // are dropped (docs/mcp.md).
    hooks: { notice: context.notice, remind: () => {} },
  })
}
