import type { Settings } from '@z-engine/protocol'
import { parseMcpJsonLayer } from '../../mcp/mcp-json-layer.js'
import type { PluginDefinitionSource } from '../definitions/types.js'
import { parseClaudeLayer } from '../settings/claude-layer.js'
import type { LoadedLayer, SettingsNotice } from '../settings/layers.js'
import { type PluginContents, readPluginContents } from './contents.js'
import { readPluginRegistry } from './registry.js'

type Json = Record<string, unknown>

/** An enabled, installed plugin as a session loads it. */
export interface ActivePlugin {
  /** `<plugin>@<marketplace>`. */
  id: string
  marketplace: string
  contents: PluginContents
  /** Its MCP servers as the session names them (`plugin_<plugin>_<server>`). */
  mcpServerNames: string[]
}

/** What `loadActivePlugins` found: the plugins, their settings layers, and problems as notices. */
export interface LoadedPlugins {
  plugins: ActivePlugin[]
  /** One `plugin` layer per plugin with hooks or MCP servers (`${CLAUDE_PLUGIN_ROOT}` expanded). */
  layers: LoadedLayer[]
  notices: SettingsNotice[]
}

/**
 * The plugins settings enable (`plugins.enabled`, already trust-gated: a project's choices count only
 * in a trusted workspace) that are installed in the data folder. An enabled plugin that is not
 * installed, or whose folder is broken, is a notice; the others load.
 */
export async function loadActivePlugins(settings: Settings, dataDir: string): Promise<LoadedPlugins> {
  const enabled = Object.entries(settings.plugins.enabled)
    .filter(([, on]) => on)
    .map(([id]) => id)
    .sort()
  const loaded: LoadedPlugins = { plugins: [], layers: [], notices: [] }
  if (enabled.length === 0) return loaded
  const read = await readPluginRegistry(dataDir)
  if (!read.ok) {
    loaded.notices.push(pluginNotice('error', dataDir, `${read.error}; no plugin is loaded`))
    return loaded
  }
  const results = await Promise.all(
    enabled.map(async (id) => {
      const installed = read.registry.plugins[id]
      if (installed === undefined) return { id, missing: true as const }
      return { id, marketplace: installed.marketplace, result: await readPluginContents(installed.root) }
    }),
  )
  for (const entry of results) {
    if ('missing' in entry) {
      loaded.notices.push(
        pluginNotice(
          'warning',
          entry.id,
          `plugin ${entry.id} is enabled but not installed; run z-engine plugin install ${entry.id}`,
        ),
      )
      continue
    }
    if (!entry.result.ok) {
      loaded.notices.push(
        pluginNotice('error', entry.id, `plugin ${entry.id}: ${entry.result.error}; it is not loaded`),
      )
      continue
    }
    const contents = entry.result.contents
    for (const problem of contents.problems)
      loaded.notices.push(pluginNotice('warning', contents.root, `plugin ${entry.id}: ${problem}`))
    const layer = pluginLayer(entry.id, contents)
    if (layer.data.hooks !== undefined || layer.data.mcp !== undefined) loaded.layers.push(layer)
    else loaded.notices.push(...layer.notices)
    loaded.plugins.push({
      id: entry.id,
      marketplace: entry.marketplace,
      contents,
      mcpServerNames: Object.keys(layer.data.mcp?.servers ?? {}),
    })
  }
  return loaded
}

/** The definition folders of active plugins. */
export function pluginDefinitionSources(plugins: readonly ActivePlugin[]): PluginDefinitionSource[] {
  return plugins.map(({ id, contents }) => ({
    id,
    name: contents.name,
    commands: contents.commands,
    agents: contents.agents,
    skills: contents.skills,
  }))
}

/** A plugin's MCP server name in the session: unique per plugin, and valid in `mcp__<server>__<tool>`. */
export function pluginServerName(plugin: string, server: string): string {
  return `plugin_${plugin}_${server}`.replace(/[^A-Za-z0-9_-]/g, '-').replace(/_{2,}/g, '_')
}

/**
 * A plugin's hooks and MCP servers as one settings layer, read with the same converters as
 * `.claude/settings.json` and `.mcp.json`, after `${CLAUDE_PLUGIN_ROOT}` becomes the plugin's folder.
 */
export function pluginLayer(id: string, contents: PluginContents): LoadedLayer {
  const expand = (value: unknown): unknown => expandPluginRoot(value, contents.root)
  const groups: Record<string, unknown[]> = {}
  for (const { hooks } of contents.hooks)
    for (const [event, list] of Object.entries(expand(hooks) as Json))
      groups[event] = [...(groups[event] ?? []), ...(Array.isArray(list) ? list : [list])]
  const hookLayer = parseClaudeLayer('plugin', contents.root, JSON.stringify({ hooks: groups }))
  const servers: Json = {}
  for (const { name, server } of contents.mcpServers)
    servers[pluginServerName(contents.name, name)] = expand(server)
  const mcpLayer = parseMcpJsonLayer(contents.root, JSON.stringify({ mcpServers: servers }), 'plugin')
  const data: LoadedLayer['data'] = {}
  if (Object.keys(groups).length > 0 && hookLayer.data.hooks !== undefined) data.hooks = hookLayer.data.hooks
  if (mcpLayer.data.mcp !== undefined) data.mcp = mcpLayer.data.mcp
  const prefix = (notice: SettingsNotice): SettingsNotice => ({
    ...notice,
    message: `plugin ${id}: ${notice.message}`,
  })
  return {
    name: 'plugin',
    file: contents.root,
    plugin: id,
    present: true,
    data,
    notices: [...hookLayer.notices, ...mcpLayer.notices].map(prefix),
  }
}

/** Replaces `${CLAUDE_PLUGIN_ROOT}` in every string of a JSON value. */
export function expandPluginRoot(value: unknown, root: string): unknown {
  if (typeof value === 'string') return value.replaceAll('${CLAUDE_PLUGIN_ROOT}', root)
  if (Array.isArray(value)) return value.map((item) => expandPluginRoot(item, root))
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, expandPluginRoot(inner, root)]),
    )
  return value
}

function pluginNotice(severity: SettingsNotice['severity'], file: string, message: string): SettingsNotice {
  return { severity, layer: 'plugin', file, key: 'plugins', message }
}
