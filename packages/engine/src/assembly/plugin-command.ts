import type { Settings } from '@z-engine/protocol'
import {
  listInstalledPlugins,
  setPluginEnabled,
  stagePluginInstall,
  uninstallPlugin,
} from '../workspace/plugins/install.js'
import {
  addMarketplace,
  listMarketplaces,
  type PluginPaths,
  removeMarketplace,
  updateMarketplaces,
} from '../workspace/plugins/marketplaces.js'
import { pluginSummaryLines } from '../workspace/plugins/summary-lines.js'
import { marketplaceDetail, marketplaceTable, pluginDetail, pluginTable } from './plugin-listing.js'

/** What `/plugin` works with: the data and config folders, settings, and what this session loaded. */
export interface PluginCommandDeps {
  paths: PluginPaths
  configDir: string
  /** The settings in effect now (they change when `/plugin` reloads the session). */
  settings: Settings
  /** `<plugin>@<marketplace>` of the plugins this session loaded. */
  active: readonly string[]
  /**
   * Asks the user once whether to install (the question shows what the plugin adds); false when
   * declined or dismissed.
   */
  confirm(question: string, details: string): Promise<boolean>
  /** Reloads the session, so what an install, uninstall or toggle changed is live in this chat. */
  reload(): Promise<void>
}

/** `/plugin`'s answer: markdown to show, or a warning. */
export type PluginCommandResult = { type: 'output'; markdown: string } | { type: 'warning'; message: string }

const USAGE = [
  'Usage: /plugin [list]',
  '/plugin show <plugin>@<marketplace>',
  '/plugin marketplace add <folder | git URL | owner/repo>',
  '/plugin marketplace list | show <name> | remove <name> | update [name]',
  '/plugin install|uninstall|enable|disable <plugin>@<marketplace>',
].join(', ')

const usage = (): PluginCommandResult => ({ type: 'warning', message: USAGE })
const warning = (verb: string, error: string): PluginCommandResult => ({
  type: 'warning',
  message: `/plugin ${verb}: ${error}`,
})

/**
 * `/plugin` in a chat, over the same engine functions as `z-engine plugin`: lists, adds, removes and
 * updates marketplaces; installs (after showing what the plugin adds and asking once), uninstalls,
 * enables and disables plugins in the user's settings, then reloads the session so its commands,
 * agents, skills, hooks and MCP servers appear in (or leave) this chat at once. A project's own
 * `enabledPlugins` still load only in a trusted workspace: the reload reads settings trust-gated.
 */
export async function runPluginCommand(deps: PluginCommandDeps, args: string): Promise<PluginCommandResult> {
  const [verb, ...rest] = args.split(/\s+/).filter((word) => word !== '')
  if (verb === undefined || (verb === 'list' && rest.length === 0))
    return { type: 'output', markdown: await listing(deps) }
  if (verb === 'marketplace') return marketplace(deps, rest)
  const [id, ...extra] = rest
  if (id === undefined || extra.length > 0) return usage()
  switch (verb) {
    case 'show':
      return showPlugin(deps, id)
    case 'install':
      return install(deps, id)
    case 'uninstall': {
      const removed = await uninstallPlugin(deps.paths, deps.configDir, id)
      if (!removed.ok) return warning(verb, removed.error)
      await deps.reload()
      return {
        type: 'output',
        markdown: `Uninstalled **${id}**; its commands, agents, skills, hooks and MCP servers are gone from this chat.`,
      }
    }
    case 'enable':
    case 'disable': {
      const written = await setPluginEnabled(deps.paths, deps.configDir, id, verb === 'enable')
      if (!written.ok) return warning(verb, written.error)
      await deps.reload()
      return {
        type: 'output',
        markdown: `${verb === 'enable' ? 'Enabled' : 'Disabled'} **${id}** in ${written.value}; its commands, agents, skills, hooks and MCP servers ${verb === 'enable' ? 'are live in' : 'are gone from'} this chat.`,
      }
    }
    default:
      return usage()
  }
}

async function install(deps: PluginCommandDeps, id: string): Promise<PluginCommandResult> {
  const staged = await stagePluginInstall(deps.paths, deps.settings, id)
  if (!staged.ok) return warning('install', staged.error)
  const plugin = staged.value
  const heading = `${plugin.id}${plugin.version !== undefined ? ` ${plugin.version}` : ''}${plugin.description !== undefined ? ` — ${plugin.description}` : ''}`
  const adds = pluginSummaryLines(plugin.summary)
  let agreed = false
  try {
    agreed = await deps.confirm(
      `Install ${id}? Its hooks and MCP servers run programs on this machine.`,
      [heading, ...adds].join('\n'),
    )
  } finally {
    if (!agreed) await plugin.discard()
  }
  if (!agreed) return { type: 'output', markdown: `Not installed: **${id}**.` }
  const committed = await plugin.commit(deps.configDir)
  if (!committed.ok) return warning('install', committed.error)
  await deps.reload()
  return {
    type: 'output',
    markdown: [
      `Installed **${id}** and enabled it in ${committed.value.settingsFile}. Live in this chat now:`,
      '',
      ...adds.map((line) => `- ${line}`),
    ].join('\n'),
  }
}

async function marketplace(deps: PluginCommandDeps, words: string[]): Promise<PluginCommandResult> {
  const [verb, argument, ...extra] = words
  if (extra.length > 0) return usage()
  switch (verb) {
    case undefined:
    case 'list':
      if (argument !== undefined) return usage()
      return { type: 'output', markdown: await listing(deps, { plugins: false }) }
    case 'show': {
      if (argument === undefined) return usage()
      const [markets, plugins] = await Promise.all([
        listMarketplaces(deps.paths, deps.settings),
        listInstalledPlugins(deps.paths, deps.settings),
      ])
      if (!markets.ok) return warning('marketplace show', markets.error)
      const market = markets.value.find((candidate) => candidate.name === argument)
      if (market === undefined)
        return warning(
          'marketplace show',
          `no marketplace named ${argument}; known: ${markets.value.map((known) => known.name).join(', ') || 'none'}.`,
        )
      const installed = plugins.ok ? plugins.value.map((plugin) => plugin.id) : []
      return { type: 'output', markdown: marketplaceDetail(market, installed) }
    }
    case 'add': {
      if (argument === undefined) return usage()
      const added = await addMarketplace(deps.paths, argument)
      if (!added.ok) return warning('marketplace add', added.error)
      const { manifest, ...entry } = added.value
      return {
        type: 'output',
        markdown: [
          `Added marketplace **${entry.name}** (${entry.kind === 'git' ? `cloned into ${entry.root}` : entry.root}) with ${manifest.plugins.length} plugin${manifest.plugins.length === 1 ? '' : 's'}: ${manifest.plugins.map((plugin) => plugin.name).join(', ')}.`,
          ...manifest.problems.map((problem) => `- warning: ${problem}`),
          '',
          `Install one with \`/plugin install <plugin>@${entry.name}\`.`,
        ].join('\n'),
      }
    }
    case 'remove': {
      if (argument === undefined) return usage()
      const removed = await removeMarketplace(deps.paths, argument)
      if (!removed.ok) return warning('marketplace remove', removed.error)
      if (removed.value.uninstalled.length > 0) await deps.reload()
      return {
        type: 'output',
        markdown: `Removed marketplace **${argument}**${removed.value.uninstalled.length > 0 ? ` and uninstalled ${removed.value.uninstalled.join(', ')}` : ''}.`,
      }
    }
    case 'update': {
      const updated = await updateMarketplaces(deps.paths, argument)
      if (!updated.ok) return warning('marketplace update', updated.error)
      return {
        type: 'output',
        markdown: updated.value
          .map((result) =>
            'error' in result
              ? `- ${result.name}: ${result.error}`
              : `- Updated **${result.name}**: ${result.plugins} plugin${result.plugins === 1 ? '' : 's'}.`,
          )
          .join('\n'),
      }
    }
    default:
      return usage()
  }
}

/** `/plugin` and `/plugin marketplace list`: compact tables, with where the detail views are. */
async function listing(deps: PluginCommandDeps, show = { plugins: true }): Promise<string> {
  const [markets, plugins] = await Promise.all([
    listMarketplaces(deps.paths, deps.settings),
    listInstalledPlugins(deps.paths, deps.settings),
  ])
  const lines: string[] = ['**Marketplaces**', '']
  lines.push(...(markets.ok ? marketplaceTable(markets.value) : [markets.error]))
  if (show.plugins) {
    lines.push('', '**Installed plugins**', '')
    lines.push(...(plugins.ok ? pluginTable(plugins.value, deps.active) : [plugins.error]))
  }
  lines.push(
    '',
    '`/plugin show <plugin>@<marketplace>` and `/plugin marketplace show <name>` show one in full; `/plugin install|uninstall|enable|disable <plugin>@<marketplace>`; `/plugin marketplace add|remove|update`.',
  )
  return lines.join('\n')
}

/** `/plugin show <plugin>@<marketplace>`: one installed plugin in full. */
async function showPlugin(deps: PluginCommandDeps, id: string): Promise<PluginCommandResult> {
  const plugins = await listInstalledPlugins(deps.paths, deps.settings)
  if (!plugins.ok) return warning('show', plugins.error)
  const plugin = plugins.value.find((candidate) => candidate.id === id)
  if (plugin === undefined)
    return warning(
      'show',
      `${id} is not installed; installed: ${plugins.value.map((known) => known.id).join(', ') || 'none'}. For a marketplace's plugins, /plugin marketplace show <name>.`,
    )
  return { type: 'output', markdown: pluginDetail(plugin, deps.active) }
}
