import type { McpServerInfo } from './server-connection.js'

/** Lines of a stdio server's stderr `/mcp` shows. */
const STDERR_LINES = 5

/** `/mcp`'s answer: each server's status, transport, tools and prompts, last error and stderr tail. */
export function renderMcpStatus(servers: readonly McpServerInfo[], deferred: readonly string[]): string {
  if (servers.length === 0)
    return 'No MCP servers are configured. Add them under `[mcp.servers.<name>]` in settings or in `.mcp.json`.'
  const lines: string[] = []
  for (const server of servers) {
    lines.push(
      `**${server.name}** (${server.transport}): ${server.status} · ${server.toolCount} tools · ${server.promptCount} prompts${server.pid !== undefined && server.status === 'ready' ? ` · pid ${server.pid}` : ''}`,
    )
    if (server.lastError !== undefined) lines.push(`  last error: ${server.lastError}`)
    const tail = server.stderr
      .trimEnd()
      .split('\n')
      .filter((line) => line !== '')
      .slice(-STDERR_LINES)
    if (tail.length > 0) lines.push('  stderr:', ...tail.map((line) => `    ${line}`))
  }
  if (deferred.length > 0)
    lines.push('', `${deferred.length} MCP tools are deferred; the model loads them with LoadMcpTools.`)
  lines.push('', 'Reconnect a server with `/mcp reconnect <name>`.')
  return lines.join('\n')
}
