import { cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve, sep } from 'node:path'
import type { Settings } from '@z-engine/protocol'
import { loadAgentDefinitions, loadCommandDefinitions, loadSkillDefinitions } from '../definitions/load.js'
import { settingsFiles } from '../settings/paths.js'
import { setTomlBoolean } from '../settings/toml-set.js'
import { pluginLayer } from './active.js'
import { cloneGitSource, describeGitSource } from './clone-source.js'
import { type PluginContents, readPluginContents } from './contents.js'
import {
  addMarketplace,
  declaredPin,
  type PluginPaths,
  type PluginResult,
  readKnownMarketplace,
  unknownMarketplace,
} from './marketplaces.js'
import { type InstalledPlugin, pluginsDir, readPluginRegistry, writePluginRegistry } from './registry.js'

/** What a plugin adds, shown before installing and by `plugin list`: names as a session sees them. */
export interface PluginSummary {
  commands: string[]
  agents: string[]
  skills: string[]
  hooks: Array<{ event: string; matcher?: string; command: string }>
  mcpServers: Array<{ name: string; command?: string; url?: string }>
  problems: string[]
}

/** A plugin copied into the data folder but not yet registered: confirm, then `commit` or `discard`. */
export interface StagedPlugin {
  id: string
  name: string
  marketplace: string
  version?: string
  description?: string
  summary: PluginSummary
  /** Registers the copy (replacing an earlier install) and enables it in the user's settings. */
  commit(configDir: string): Promise<PluginResult<{ settingsFile: string }>>
  discard(): Promise<void>
}

/** Splits `<plugin>@<marketplace>`. */
export function parsePluginId(id: string): PluginResult<{ name: string; marketplace: string }> {
  const at = id.lastIndexOf('@')
  if (at <= 0 || at === id.length - 1)
    return { ok: false, error: `"${id}" is not <plugin>@<marketplace> (e.g. formatter@acme-tools)` }
  return { ok: true, value: { name: id.slice(0, at), marketplace: id.slice(at + 1) } }
}

/**
 * Finds `<plugin>@<marketplace>` (adding a marketplace settings declare on first use), copies or
 * clones the plugin into a staging folder, and reads what it adds. Nothing is registered yet.
 */
export async function stagePluginInstall(
  paths: PluginPaths,
  settings: Settings,
  id: string,
): Promise<PluginResult<StagedPlugin>> {
  const parsedId = parsePluginId(id)
  if (!parsedId.ok) return parsedId
  const { name, marketplace } = parsedId.value
  let read = await readPluginRegistry(paths.dataDir)
  if (!read.ok) return read
  let market = read.registry.marketplaces[marketplace]
  if (market === undefined) {
    const declared = settings.plugins.marketplaces[marketplace]
    if (declared === undefined) return unknownMarketplace(read.registry, marketplace)
    const added = await addMarketplace(paths, declared.source, declaredPin(declared))
    if (!added.ok) return { ok: false, error: `marketplace ${marketplace} (from settings): ${added.error}` }
    if (added.value.name !== marketplace)
      return {
        ok: false,
        error: `settings name the marketplace ${marketplace}, but ${declared.source} calls itself ${added.value.name}`,
      }
    read = await readPluginRegistry(paths.dataDir)
    if (!read.ok) return read
    market = read.registry.marketplaces[marketplace]!
  }
  const manifest = await readKnownMarketplace(market)
  if (!manifest.ok) return manifest
  const entry = manifest.value.plugins.find((plugin) => plugin.name === name)
  if (entry === undefined)
    return {
      ok: false,
      error: `marketplace ${marketplace} has no plugin ${name} (it lists: ${manifest.value.plugins.map((plugin) => plugin.name).join(', ') || 'none'})`,
    }
  const cacheDir = join(pluginsDir(paths.dataDir), 'cache', marketplace)
  const staging = join(cacheDir, `.staging-${name}-${process.pid}`)
  await rm(staging, { recursive: true, force: true })
  await mkdir(cacheDir, { recursive: true })
  if (entry.source.kind === 'relative') {
    const from = resolve(market.root, entry.source.path)
    if (!isInside(market.root, from))
      return { ok: false, error: `plugin ${name}'s source ${entry.source.path} leaves the marketplace` }
    try {
      await cp(from, staging, { recursive: true, filter: (path) => !path.split(sep).includes('.git') })
    } catch (error) {
      return {
        ok: false,
        error: `could not copy plugin ${name} from ${from} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      }
    }
  } else {
    const cloned = await cloneGitSource(entry.source, staging, paths.env)
    if (!cloned.ok) {
      await rm(staging, { recursive: true, force: true })
      return {
        ok: false,
        error: `could not install plugin ${name} from its ${describeGitSource(entry.source)}: ${cloned.error}`,
      }
    }
  }
  const contents = await readPluginContents(staging, entry)
  if (!contents.ok) {
    await rm(staging, { recursive: true, force: true })
    return contents
  }
  const finalRoot = join(cacheDir, name)
  // Summaries name paths as installed, so `${CLAUDE_PLUGIN_ROOT}` shows the final folder.
  const summary = await summarizePlugin(id, { ...contents.contents, root: staging }, finalRoot)
  const staged: StagedPlugin = {
    id,
    name,
    marketplace,
    summary,
    async commit(configDir) {
      const again = await readPluginRegistry(paths.dataDir)
      if (!again.ok) return again
      await rm(finalRoot, { recursive: true, force: true })
      await rename(staging, finalRoot)
      const installed: InstalledPlugin = {
        id,
        name,
        marketplace,
        root: finalRoot,
        installedAt: new Date().toISOString(),
        ...(contents.contents.version !== undefined ? { version: contents.contents.version } : {}),
      }
      again.registry.plugins[id] = installed
      await writePluginRegistry(paths.dataDir, again.registry)
      const enabled = await persistPluginEnabled(configDir, id, true)
      return enabled.ok ? { ok: true, value: { settingsFile: enabled.value } } : enabled
    },
    discard: () => rm(staging, { recursive: true, force: true }),
  }
  if (contents.contents.version !== undefined) staged.version = contents.contents.version
  if (contents.contents.description !== undefined) staged.description = contents.contents.description
  return { ok: true, value: staged }
}

/** `plugin uninstall`: deletes the copy, forgets it, and drops it from the user's `plugins.enabled`. */
export async function uninstallPlugin(
  paths: PluginPaths,
  configDir: string,
  id: string,
): Promise<PluginResult<{ root: string }>> {
  const read = await readPluginRegistry(paths.dataDir)
  if (!read.ok) return read
  const installed = read.registry.plugins[id]
  if (installed === undefined) return notInstalled(Object.keys(read.registry.plugins), id)
  delete read.registry.plugins[id]
  await writePluginRegistry(paths.dataDir, read.registry)
  await rm(installed.root, { recursive: true, force: true })
  const removed = await persistPluginEnabled(configDir, id, undefined)
  if (!removed.ok) return removed
  return { ok: true, value: { root: installed.root } }
}

/** An installed plugin as `plugin list` shows it. */
export interface PluginListing extends InstalledPlugin {
  enabled: boolean
  description?: string
  summary?: PluginSummary
  error?: string
}

/** Every installed plugin, whether settings enable it, and what it adds. */
export async function listInstalledPlugins(
  paths: PluginPaths,
  settings: Settings,
): Promise<PluginResult<PluginListing[]>> {
  const read = await readPluginRegistry(paths.dataDir)
  if (!read.ok) return read
  const listings: PluginListing[] = []
  for (const installed of Object.values(read.registry.plugins).sort((a, b) => a.id.localeCompare(b.id))) {
    const listing: PluginListing = { ...installed, enabled: settings.plugins.enabled[installed.id] === true }
    const contents = await readPluginContents(installed.root)
    if (contents.ok) {
      if (contents.contents.description !== undefined) listing.description = contents.contents.description
      listing.summary = await summarizePlugin(installed.id, contents.contents, installed.root)
    } else listing.error = contents.error
    listings.push(listing)
  }
  return { ok: true, value: listings }
}

/** `plugin enable|disable`: checks the plugin is installed, then writes the user's settings. */
export async function setPluginEnabled(
  paths: PluginPaths,
  configDir: string,
  id: string,
  enabled: boolean,
): Promise<PluginResult<string>> {
  const read = await readPluginRegistry(paths.dataDir)
  if (!read.ok) return read
  if (read.registry.plugins[id] === undefined) return notInstalled(Object.keys(read.registry.plugins), id)
  return persistPluginEnabled(configDir, id, enabled)
}

/** Sets `[plugins.enabled] "<id>" = …` in the user's settings.toml (undefined removes it). */
export async function persistPluginEnabled(
  configDir: string,
  id: string,
  enabled: boolean | undefined,
): Promise<PluginResult<string>> {
  const file = settingsFiles({ home: configDir, configDir }).user
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) =>
    error.code === 'ENOENT' ? '' : undefined,
  )
  if (text === undefined) return { ok: false, error: `could not read ${file}` }
  const edit = setTomlBoolean(text, ['plugins', 'enabled'], id, enabled)
  if (!edit.ok) return { ok: false, error: `could not set plugins.enabled."${id}" in ${file}: ${edit.error}` }
  if (edit.changed) {
    await mkdir(dirname(file), { recursive: true })
    const temporary = `${file}.${process.pid}.tmp`
    await writeFile(temporary, edit.text)
    await rename(temporary, file)
  }
  return { ok: true, value: file }
}

/** The namespaced names of what a plugin adds, read with the session's own loaders. */
export async function summarizePlugin(
  id: string,
  contents: PluginContents,
  installedRoot: string,
): Promise<PluginSummary> {
  const source = {
    id,
    name: contents.name,
    commands: contents.commands,
    agents: contents.agents,
    skills: contents.skills,
  }
  const roots = {
    projectRoot: contents.root,
    home: contents.root,
    configDir: contents.root,
    compatClaude: false,
    userFiles: false,
    plugins: [source],
  }
  const [agents, commands, skills] = await Promise.all([
    loadAgentDefinitions(roots),
    loadCommandDefinitions(roots),
    loadSkillDefinitions(roots),
  ])
  const names = (list: ReadonlyArray<{ name: string; plugin?: string }>) =>
    list.filter((item) => item.plugin === id).map((item) => item.name)
  // The data folder is kept as written: a summary names what the plugin runs, not where it keeps data.
  const layer = pluginLayer(id, { ...contents, root: installedRoot }, '${CLAUDE_PLUGIN_DATA}')
  const hooks: PluginSummary['hooks'] = []
  for (const [event, entries] of Object.entries(layer.data.hooks ?? {}))
    for (const entry of entries ?? [])
      hooks.push({
        event,
        command: entry.command,
        ...(entry.matcher !== undefined ? { matcher: entry.matcher } : {}),
      })
  const mcpServers = Object.entries(layer.data.mcp?.servers ?? {}).map(([name, server]) => ({
    name,
    ...(server.command !== undefined ? { command: [server.command, ...(server.args ?? [])].join(' ') } : {}),
    ...(server.url !== undefined ? { url: server.url } : {}),
  }))
  return {
    commands: names(
      commands.definitions.filter(
        (command) => !skills.definitions.some((skill) => skill.name === command.name),
      ),
    ),
    agents: names(agents.definitions),
    skills: names(skills.definitions),
    hooks,
    mcpServers,
    problems: [
      ...contents.problems,
      ...[...agents.errors, ...commands.errors, ...skills.errors].map(
        (error) => `${relative(contents.root, error.path)}: ${error.message}`,
      ),
      ...layer.notices.map((notice) => notice.message),
    ],
  }
}

function notInstalled(installed: string[], id: string): { ok: false; error: string } {
  return {
    ok: false,
    error: `plugin ${id} is not installed${installed.length > 0 ? ` (installed: ${installed.join(', ')})` : ''}; install it with z-engine plugin install ${id}`,
  }
}

function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)
}
