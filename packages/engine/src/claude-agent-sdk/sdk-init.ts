import { randomUUID } from 'node:crypto'
import { viewOf } from '../api/engine.js'
import type { McpServerInfo } from '../mcp/server-connection.js'
import type { Session } from '../session/session-types.js'
import type { McpServerStatus, SDKSystemMessage } from './sdk-message-types.js'
import { bareModel } from './sdk-messages.js'
import type { PermissionMode } from './sdk-types.js'
import { claudeToolName } from './tool-names.js'

/**
 * The Claude Code release whose Agent SDK (0.3.337) this entry is checked against, and whose
 * `claude -p` shapes the CLI prints: `claude_code_version` names it, so a consumer that
 * feature-detects by version reads the shapes it gets.
 */
export const CLAUDE_CODE_VERSION = '2.1.332'

/** An MCP server's state in the Claude Agent SDK's words. */
export function sdkStatus(server: McpServerInfo): McpServerStatus['status'] {
  switch (server.status) {
    case 'ready':
      return 'connected'
    case 'starting':
      return 'pending'
    case 'failed':
      return 'failed'
    case 'closed':
      return 'disabled'
    default: {
      const never: never = server.status
      return never
    }
  }
}

/**
 * The `system`/`init` message that opens a query (and `claude -p`'s stream-json): the session, its
 * folder, tools, MCP servers, model, mode, `/` commands, agents, skills and plugins as they are now.
 */
export async function sdkInitMessage(
  session: Session,
  options: { env: NodeJS.ProcessEnv; permissionMode?: PermissionMode },
): Promise<SDKSystemMessage> {
  const view = viewOf(session)
  return {
    type: 'system',
    subtype: 'init',
    cwd: session.projectRoot,
    session_id: session.id,
    tools: view.toolNames().map(claudeToolName),
    mcp_servers: view.mcpServers().map((server) => ({ name: server.name, status: sdkStatus(server) })),
    model: bareModel(session.model),
    permissionMode:
      options.permissionMode ?? (session.mode === 'bypass' ? 'bypassPermissions' : session.mode),
    slash_commands: await view.slashCommands(),
    // Claude Code names the variable the key came from; `user` was its older spelling.
    apiKeySource: options.env.ANTHROPIC_API_KEY !== undefined ? 'ANTHROPIC_API_KEY' : 'none',
    claude_code_version: CLAUDE_CODE_VERSION,
    output_style: 'default',
    agents: view.agentNames(),
    skills: view.skillNames(),
    plugins: view.plugins(),
    terminal_slash_commands: [],
    capabilities: [],
    fast_mode_state: 'off',
    fast_mode_disabled_reason: 'unknown',
    view_mode: 'default',
    uuid: randomUUID(),
  }
}
