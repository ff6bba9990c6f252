import type { Settings } from '@z-engine/protocol'
import { listInstalledPlugins, setPluginEnabled } from '../workspace/plugins/install.js'
import { listMarketplaces, type PluginPaths } from '../workspace/plugins/marketplaces.js'

/** What `/plugin` works with: the data and config folders, settings, and what this session loaded. */
export interface PluginCommandDeps {
  paths: PluginPaths
  configDir: string
  settings: Settings
  /** `<plugin>@<marketplace>` of the plugins this session loaded. */
  active: readonly string[]
}

/** `/plugin`'s answer: markdown to show, or a warning. */
export type PluginCommandResult = { type: 'output'; markdown: string } | { type: 'warning'; message: string }

const USAGE = 'Usage: /plugin, /plugin enable <plugin>@<marketplace>, /plugin disable <plugin>@<marketplace>'

/**
 * `/plugin` in a chat: lists marketplaces and installed plugins (and which this session loaded);
 * `enable` / `disable` write the user's settings. Installing shows what a plugin adds and asks, which
 * `z-engine plugin install` does in a terminal; here it says so.
 */
export async function runPluginCommand(deps: PluginCommandDeps, args: string): Promise<PluginCommandResult> {
  const [verb, id, ...extra] = args.split(/\s+/).filter((word) => word !== '')
  if (verb === undefined || verb === 'list') return { type: 'output', markdown: await listing(deps) }
  if ((verb === 'enable' || verb === 'disable') && id !== undefined && extra.length === 0) {
    const written = await setPluginEnabled(deps.paths, deps.configDir, id, verb === 'enable')
    if (!written.ok) return { type: 'warning', message: `/plugin ${verb}: ${written.error}` }
    return {
      type: 'output',
      markdown: `${verb === 'enable' ? 'Enabled' : 'Disabled'} **${id}** in ${written.value}. Sessions opened from now on ${verb === 'enable' ? 'load' : 'no longer load'} its commands, agents, skills, hooks and MCP servers; this one keeps what it loaded.`,
    }
  }
  if (verb === 'install' || verb === 'uninstall')
    return {
      type: 'warning',
      message: `/plugin ${verb}: run \`z-engine plugin ${verb} ${id ?? '<plugin>@<marketplace>'}\` in a terminal (install shows what the plugin adds and asks first).`,
    }
  return { type: 'warning', message: USAGE }
}

async function listing(deps: PluginCommandDeps): Promise<string> {
  const [markets, plugins] = await Promise.all([
    listMarketplaces(deps.paths, deps.settings),
    listInstalledPlugins(deps.paths, deps.settings),
  ])
  const lines: string[] = ['**Marketplaces**', '']
  if (!markets.ok) lines.push(`- ${markets.error}`)
  else if (markets.value.length === 0)
    lines.push('- none (add one with `z-engine plugin marketplace add <folder | git URL | owner/repo>`)')
  else
    for (const market of markets.value)
      lines.push(
        market.status === 'declared'
          ? `- ${market.name} (declared in settings: ${market.source})`
          : `- ${market.name} (${market.source}): ${market.error ?? (market.plugins ?? []).map((plugin) => plugin.name).join(', ')}`,
      )
  lines.push('', '**Installed plugins**', '')
  if (!plugins.ok) lines.push(`- ${plugins.error}`)
  else if (plugins.value.length === 0) lines.push('- none (`z-engine plugin install <plugin>@<marketplace>`)')
  else
    for (const plugin of plugins.value) {
      const state = plugin.enabled ? 'enabled' : 'disabled'
      const loaded = deps.active.includes(plugin.id) ? ', loaded in this session' : ''
      const summary = plugin.summary
      const adds =
        summary === undefined
          ? (plugin.error ?? '')
          : [
              summary.commands.map((name) => `/${name}`).join(' '),
              summary.agents.length > 0 ? `agents ${summary.agents.join(', ')}` : '',
              summary.skills.length > 0 ? `skills ${summary.skills.join(', ')}` : '',
              summary.hooks.length > 0 ? `${summary.hooks.length} hooks` : '',
              summary.mcpServers.length > 0
                ? `MCP ${summary.mcpServers.map((server) => server.name).join(', ')}`
                : '',
            ]
              .filter((part) => part !== '')
              .join('; ')
      lines.push(
        `- **${plugin.id}**${plugin.version !== undefined ? ` ${plugin.version}` : ''} (${state}${loaded})${adds !== '' ? `: ${adds}` : ''}`,
      )
    }
  lines.push('', '`/plugin enable|disable <plugin>@<marketplace>` toggles one.')
  return lines.join('\n')
}
