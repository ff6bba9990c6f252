import { childEnvironment } from '@z-engine/host'
import { envPolicyOf } from '../workspace/settings/child-environment.js'
import type { LoadedSettings } from '../workspace/settings/load-settings.js'
import type { McpServerInfo } from './server-connection.js'
import { createSessionMcp } from './session-mcp.js'

/** What `probeMcpServers` found: each server's status, and the notices a session would show. */
export interface McpProbe {
  servers: McpServerInfo[]
  notices: Array<{ level: 'info' | 'warning'; message: string }>
}

/**
 * Starts a project's MCP servers the way a session would (same settings, trust and environment),
 * waits until each is ready or failed (its own start timeout), records status, tool count, last
 * error and stderr, and kills them all: `z-engine mcp list` shows real status with it.
 */
export async function probeMcpServers(input: {
  loaded: LoadedSettings
  trusted: boolean
  projectRoot: string
  env: Readonly<Record<string, string | undefined>>
}): Promise<McpProbe> {
  const notices: McpProbe['notices'] = []
  const manager = createSessionMcp({
    ...input,
    childEnv: childEnvironment(input.env, envPolicyOf(input.loaded.settings)),
    hooks: { notice: (level, message) => notices.push({ level, message }), remind: () => {} },
  })
  try {
    manager.start()
    await manager.settled()
    return { servers: manager.servers(), notices }
  } finally {
    await manager.close()
  }
}
