import type { PluginSummary } from './install.js'

/**
 * What a plugin adds, one line each (commands, agents, skills, every hook's command, every MCP
 * server's program or URL, then its problems): what `plugin install` shows before asking, in a
 * terminal and in the chat alike.
 */
export function pluginSummaryLines(summary: PluginSummary): string[] {
  const lines: string[] = []
  const list = (label: string, names: string[]) => {
    if (names.length > 0) lines.push(`${label}: ${names.join(', ')}`)
  }
  list(
    'commands',
    summary.commands.map((name) => `/${name}`),
  )
  list('agents', summary.agents)
  list('skills', summary.skills)
  for (const hook of summary.hooks)
    lines.push(
      `hook ${hook.event}${hook.matcher !== undefined ? ` (${hook.matcher})` : ''}: runs ${hook.command}`,
    )
  for (const server of summary.mcpServers)
    lines.push(
      `MCP server ${server.name}: ${server.command !== undefined ? `runs ${server.command}` : `connects to ${server.url}`}`,
    )
  if (lines.length === 0) lines.push('(adds nothing a session loads)')
  for (const problem of summary.problems) lines.push(`warning: ${problem}`)
  return lines
}
