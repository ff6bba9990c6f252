import type { McpResourceEntry } from '../mcp/mcp-manager.js'
import type { McpServerInfo } from '../mcp/server-connection.js'
import type { SessionState } from '../session/state.js'
import type { McpPromptCommand } from '../workspace/commands/catalog.js'
import type { CommandRunner } from './command-runner.js'
import type { ToolServices } from './session-tool-services.js'
import type { SessionTools } from './session-tools.js'
import type { SessionWorkspace } from './session-workspace.js'

/** What a session offers right now, for adapters that describe it (the Claude Agent SDK init message). */
export interface SessionView {
  /** The tools the model is offered now, in order (built-ins, the embedder's, then MCP tools). */
  toolNames(): string[]
  mcpServers(): McpServerInfo[]
  /** The `/` command names the session resolves now, without the slash. */
  slashCommands(): Promise<string[]>
  /** The subagent types the Agent tool offers (built-ins and definitions). */
  agentNames(): string[]
  /** The skills' names. */
  skillNames(): string[]
  /** The enabled plugins: `name` as `<plugin>@<marketplace>`, `path` their folder. */
  plugins(): Array<{ name: string; path: string }>
  /** Prompts of the MCP servers ready now (`/mcp__<server>__<prompt>`). */
  mcpPrompts(): McpPromptCommand[]
  /** Resources the ready MCP servers list (`@server:uri`). */
  mcpResources(signal: AbortSignal): Promise<McpResourceEntry[]>
  /** Resolves when the checkpoint work started so far (snapshots, end marks) is done and its records published. */
  checkpointWork(): Promise<void>
}

/** The view of a session's tools, servers, commands, agents, skills and plugins, read at each call. */
export function sessionView(
  sessionTools: SessionTools,
  tools: ToolServices,
  commands: CommandRunner,
  workspace: SessionWorkspace,
  state: SessionState,
): SessionView {
  return {
    toolNames: () => sessionTools.current().map((tool) => tool.name),
    mcpServers: () => tools.mcp.servers(),
    slashCommands: async () => (await commands.catalog()).entries.map((entry) => entry.name),
    agentNames: () =>
      tools.ports.agents?.catalog().map((type) => type.name) ??
      workspace.agents.definitions.map((agent) => agent.name),
    skillNames: () => workspace.skills.definitions.map((skill) => skill.name),
    plugins: () =>
      workspace.loaded.plugins.map((plugin) => ({ name: plugin.id, path: plugin.contents.root })),
    mcpPrompts: () => tools.mcp.promptCommands(),
    mcpResources: (signal) => tools.mcp.resourceEntries(signal),
    checkpointWork: () => state.checkpointing,
  }
}
