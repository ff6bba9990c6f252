/**
 * What `/plugin` shows in a chat: compact tables of the marketplaces and installed plugins, and a
 * detail view of one plugin or one marketplace. Pure: the caller reads the registry.
 */
import type { PluginListing, PluginSummary } from '../workspace/plugins/install.js'
import type { MarketplaceListing } from '../workspace/plugins/marketplaces.js'
import { pluginSummaryLines } from '../workspace/plugins/summary-lines.js'

/** A table cell: one line, pipes escaped, cut to `width`. */
function cell(text: string, width = 60): string {
  const line = text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|')
  return line.length > width ? `${line.slice(0, width - 1)}…` : line
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/** What a plugin adds, as counts (`2 commands, 1 hook`). */
export function summaryCounts(summary: PluginSummary): string {
  const parts = [
    summary.commands.length > 0 ? plural(summary.commands.length, 'command') : '',
    summary.agents.length > 0 ? plural(summary.agents.length, 'agent') : '',
    summary.skills.length > 0 ? plural(summary.skills.length, 'skill') : '',
    summary.hooks.length > 0 ? plural(summary.hooks.length, 'hook') : '',
    summary.mcpServers.length > 0 ? plural(summary.mcpServers.length, 'MCP server') : '',
  ].filter((part) => part !== '')
  return parts.length === 0 ? 'nothing' : parts.join(', ')
}

/** The marketplaces as one table: name, plugin count (or why there is none), source. */
export function marketplaceTable(markets: readonly MarketplaceListing[]): string[] {
  if (markets.length === 0)
    return ['No marketplaces; add one with `/plugin marketplace add <folder | git URL | owner/repo>`.']
  return [
    '| marketplace | plugins | source |',
    '| --- | --- | --- |',
    ...markets.map((market) => {
      const plugins =
        market.status === 'declared'
          ? 'declared in settings (added on first install)'
          : market.error !== undefined
            ? `error: ${market.error}`
            : String((market.plugins ?? []).length)
      return `| ${cell(market.name)} | ${cell(plugins)} | ${cell(market.source)} |`
    }),
  ]
}

/** The installed plugins as one table: id, version, state, what each adds (as counts). */
export function pluginTable(plugins: readonly PluginListing[], active: readonly string[]): string[] {
  if (plugins.length === 0) return ['No plugins installed (`/plugin install <plugin>@<marketplace>`).']
  return [
    '| plugin | version | state | adds |',
    '| --- | --- | --- | --- |',
    ...plugins.map((plugin) => {
      const state = `${plugin.enabled ? 'enabled' : 'disabled'}${active.includes(plugin.id) ? ', loaded' : ''}`
      const adds =
        plugin.summary !== undefined
          ? summaryCounts(plugin.summary)
          : `error: ${plugin.error ?? 'unreadable'}`
      return `| ${cell(plugin.id)} | ${cell(plugin.version ?? '')} | ${state} | ${cell(adds)} |`
    }),
  ]
}

/** One plugin in full: what it is, its state, and every command, agent, skill, hook and server it adds. */
export function pluginDetail(plugin: PluginListing, active: readonly string[]): string {
  const heading = `**${plugin.id}**${plugin.version !== undefined ? ` ${plugin.version}` : ''}${plugin.description !== undefined ? ` — ${plugin.description}` : ''}`
  const state = `${plugin.enabled ? 'Enabled' : 'Disabled'}${active.includes(plugin.id) ? ', loaded in this session' : ''}; installed in ${plugin.root}.`
  const adds =
    plugin.summary !== undefined
      ? pluginSummaryLines(plugin.summary).map((line) => `- ${line}`)
      : [`- error: ${plugin.error ?? 'its folder cannot be read'}`]
  return [heading, '', state, '', ...adds].join('\n')
}

/** One marketplace in full: its source and a table of its plugins with versions and descriptions. */
export function marketplaceDetail(market: MarketplaceListing, installed: readonly string[]): string {
  const lines = [`**${market.name}** (${market.source})`, '']
  if (market.status === 'declared')
    return [...lines, 'Declared in settings; it is added on the first install from it.'].join('\n')
  if (market.error !== undefined) return [...lines, `error: ${market.error}`].join('\n')
  const plugins = market.plugins ?? []
  if (plugins.length === 0) return [...lines, 'It lists no plugins.'].join('\n')
  lines.push(
    '| plugin | version | description |',
    '| --- | --- | --- |',
    ...plugins.map((plugin) => {
      const id = `${plugin.name}@${market.name}`
      const mark = installed.includes(id) ? ' (installed)' : ''
      return `| ${cell(plugin.name)}${mark} | ${cell(plugin.version ?? '')} | ${cell(plugin.description ?? '', 80)} |`
    }),
    '',
    `Install one with \`/plugin install <plugin>@${market.name}\`.`,
  )
  return lines.join('\n')
}
