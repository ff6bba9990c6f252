import { mkdir } from 'node:fs/promises'
import type { Settings } from '@z-engine/protocol'
import type { PluginDefinitionSource } from '../definitions/types.js'
import { parseClaudeLayer } from '../settings/claude-layer.js'
import type { LoadedLayer, SettingsNotice } from '../settings/layers.js'
import { parseMcpJsonLayer } from '../settings/mcp-json-layer.js'
import { type PluginContents, readPluginContents } from './contents.js'
import { pluginDataDir, readPluginRegistry } from './registry.js'

type Json = Record<string, unknown>

/** An enabled, installed plugin as a session loads it. */
export interface ActivePlugin {
  /** `<plugin>@<marketplace>`. */
  id: string
  marketplace: string
  contents: PluginContents
  /** Its own data folder (`${CLAUDE_PLUGIN_DATA}`), created when it loads. */
  dataDir: string
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
    const data = pluginDataDir(dataDir, entry.id)
    // Claude Code creates it before anything of the plugin runs; a failure shows when a hook writes.
    await mkdir(data, { recursive: true }).catch(() => {})
    const layer = pluginLayer(entry.id, contents, data)
    if (layer.data.hooks !== undefined || layer.data.mcp !== undefined) loaded.layers.push(layer)
    else loaded.notices.push(...layer.notices)
    loaded.plugins.push({
      id: entry.id,
      marketplace: entry.marketplace,
      contents,
      dataDir: data,
      mcpServerNames: Object.keys(layer.data.mcp?.servers ?? {}),
    })
  }
  return loaded
}

/** The definition folders of active plugins. */
export function pluginDefinitionSources(plugins: readonly ActivePlugin[]): PluginDefinitionSource[] {
  return plugins.map(({ id, contents, dataDir }) => ({
    id,
    name: contents.name,
    commands: contents.commands,
    agents: contents.agents,
    skills: contents.skills,
    variables: pluginEnvironment(contents.root, dataDir),
  }))
}

/** A plugin's MCP server name in the session: unique per plugin, and valid in `mcp__<server>__<tool>`. */
export function pluginServerName(plugin: string, server: string): string {
  return `plugin_${plugin}_${server}`.replace(/[^A-Za-z0-9_-]/g, '-').replace(/_{2,}/g, '_')
}

/** What a plugin's hook and MCP server processes get, as in Claude Code. */
export function pluginEnvironment(root: string, dataDir: string): Record<string, string> {
  return { CLAUDE_PLUGIN_ROOT: root, CLAUDE_PLUGIN_DATA: dataDir }
}

/**
 * A plugin's hooks and MCP servers as one settings layer, read with the same converters as
 * `.claude/settings.json` and `.mcp.json`, after `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}`
 * become its folder and data folder. Its hooks and stdio servers also get both as environment
 * variables (a server's own `env` wins), so scripts that read `$CLAUDE_PLUGIN_ROOT` work.
 */
export function pluginLayer(id: string, contents: PluginContents, dataDir: string): LoadedLayer {
  const variables = pluginEnvironment(contents.root, dataDir)
  const expand = (value: unknown): unknown => expandPluginVariables(value, variables)
  const groups: Record<string, unknown[]> = {}
  for (const { hooks } of contents.hooks)
    for (const [event, list] of Object.entries(expand(hooks) as Json))
      groups[event] = [...(groups[event] ?? []), ...(Array.isArray(list) ? list : [list])]
  const hookLayer = parseClaudeLayer('plugin', contents.root, JSON.stringify({ hooks: groups }))
  const servers: Json = {}
  for (const { name, server } of contents.mcpServers) {
    const expanded = expand(server)
    servers[pluginServerName(contents.name, name)] = isStdio(expanded)
      ? { ...expanded, env: { ...variables, ...(isJson(expanded.env) ? expanded.env : {}) } }
      : expanded
  }
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
    pluginEnv: variables,
    present: true,
    data,
    notices: [...hookLayer.notices, ...mcpLayer.notices].map(prefix),
  }
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A server entry that starts a process (no `type`, or `stdio`, with a `command`). */
function isStdio(value: unknown): value is Json {
  return (
    isJson(value) && typeof value.command === 'string' && (value.type === undefined || value.type === 'stdio')
  )
}

/** Replaces `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` in every string of a JSON value. */
export function expandPluginVariables(value: unknown, variables: Readonly<Record<string, string>>): unknown {
  if (typeof value === 'string')
    return value.replace(
      /\$\{(CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}/g,
      (match, name: string) => variables[name] ?? match,
    )
  if (Array.isArray(value)) return value.map((item) => expandPluginVariables(item, variables))
  if (isJson(value))
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, expandPluginVariables(inner, variables)]),
    )
  return value
}

function pluginNotice(severity: SettingsNotice['severity'], file: string, message: string): SettingsNotice {
  return { severity, layer: 'plugin', file, key: 'plugins', message }
}
