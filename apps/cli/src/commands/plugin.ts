import { createInterface } from 'node:readline'
import {
  addMarketplace,
  listInstalledPlugins,
  listMarketplaces,
  type MarketplaceListing,
  type MarketplacePin,
  type PluginListing,
  type PluginPaths,
  type PluginResult,
  type PluginSummary,
  pluginSummaryLines,
  removeMarketplace,
  setPluginEnabled,
  stagePluginInstall,
  uninstallPlugin,
  updateMarketplaces,
} from '@z-engine/engine/plugins'
import { EXIT, UsageError } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { type InspectContext, inspectContext, subcommand } from '../inspect/inspect-context.js'
import { oneLine, printJson, printLines } from '../output.js'

const HELP = `Usage: z-engine plugin marketplace add <folder | git URL | owner/repo> [--ref <branch|tag|commit>]
                                 [--path <marketplace.json>] [--sparse <folder>...]
       z-engine plugin marketplace list|show <name>|remove <name>|update [name]
       z-engine plugin install <plugin>@<marketplace> [--yes]
       z-engine plugin uninstall|enable|disable <plugin>@<marketplace>
       z-engine plugin list [--json] | show <plugin>@<marketplace> [--json]

Plugins in Claude Code's format. A marketplace is a folder or git repository holding
.claude-plugin/marketplace.json; a folder is read in place, a git repository is cloned with the
system git into the data folder (owner/repo means GitHub). Settings may also declare marketplaces
(plugins.marketplaces, or extraKnownMarketplaces in .claude/settings.json); they are added on the
first install from them. A git marketplace may be held at a branch, tag or commit id (--ref; a
commit id never moves on update), read from another marketplace.json (--path, inside the
repository) and checked out sparsely (--sparse .claude-plugin plugins), as Claude Code's ref, path
and sparsePaths.

install copies the plugin into the data folder, shows what it adds (commands, agents, skills, hooks,
MCP servers) and asks once; without a terminal pass --yes. It then enables it in your user
settings ([plugins.enabled]). A project enables plugins in its own settings (enabledPlugins in
.claude/settings.json); those load only in a trusted workspace (z-engine trust).

Components are namespaced: /<plugin>:<command>, agent type <plugin>:<agent>, skill <plugin>:<skill>,
MCP server plugin_<plugin>_<server>; \${CLAUDE_PLUGIN_ROOT} in hooks and MCP servers is the
plugin's folder. Every list --json (agents, commands, skills, hooks, mcp) names each one's plugin.
`

/** `z-engine plugin`: marketplaces, installing and toggling plugins. */
export async function main(io: CommandIo): Promise<number> {
  const context = await inspectContext(io, HELP, {
    yes: { type: 'boolean' },
    ref: { type: 'string' },
    path: { type: 'string' },
    sparse: { type: 'string' },
  })
  if (!context) return EXIT.ok
  const paths: PluginPaths = { dataDir: context.dataDir, env: io.env, cwd: io.cwd }
  const which = subcommand(
    context.args,
    ['marketplace', 'install', 'uninstall', 'enable', 'disable', 'list', 'show'],
    'plugin',
  )
  switch (which) {
    case 'show': {
      const id = pluginId(context, 'show')
      const listed = await listInstalledPlugins(paths, context.loaded.settings)
      if (!listed.ok) return failed(context, listed.error)
      const plugin = listed.value.find((candidate) => candidate.id === id)
      if (plugin === undefined)
        return failed(
          context,
          `${id} is not installed; installed: ${listed.value.map((known) => known.id).join(', ') || 'none'}.`,
        )
      if (context.json) printJson(io, plugin)
      else printLines(io, pluginDetailLines(plugin))
      return EXIT.ok
    }
    case 'marketplace':
      return marketplace(context, paths)
    case 'install':
      return install(context, paths, pluginId(context, 'install'))
    case 'uninstall': {
      const id = pluginId(context, 'uninstall')
      const removed = await uninstallPlugin(paths, context.configDir, id)
      return report(context, removed, () => [
        `Uninstalled ${id} (removed ${removed.ok ? removed.value.root : ''}).`,
      ])
    }
    case 'enable':
    case 'disable': {
      const id = pluginId(context, which)
      const written = await setPluginEnabled(paths, context.configDir, id, which === 'enable')
      return report(context, written, (file) => [
        `${which === 'enable' ? 'Enabled' : 'Disabled'} ${id} in ${file}; new sessions ${which === 'enable' ? 'load' : 'no longer load'} it.`,
      ])
    }
    case 'list': {
      const listed = await listInstalledPlugins(paths, context.loaded.settings)
      if (!listed.ok) return failed(context, listed.error)
      if (context.json) {
        printJson(io, { plugins: listed.value })
        return EXIT.ok
      }
      const lines = listed.value.map(
        (plugin) =>
          `${plugin.id}${plugin.version !== undefined ? ` ${plugin.version}` : ''}  [${plugin.enabled ? 'enabled' : 'disabled'}]${plugin.error !== undefined ? `  error: ${plugin.error}` : plugin.summary !== undefined ? `  ${countLine(plugin.summary)}` : ''}`,
      )
      if (lines.length === 0)
        lines.push('No plugins installed; add a marketplace and run z-engine plugin install.')
      printLines(io, lines)
      return EXIT.ok
    }
    default: {
      const unreachable: never = which
      return unreachable
    }
  }
}

/**
 * `--ref`, `--path` and `--sparse` as a marketplace pin; `--sparse` takes the words after the source
 * too, as Claude Code's `--sparse <paths...>` does (`--sparse .claude-plugin plugins`).
 */
function marketplacePin(context: InspectContext, more: readonly string[]): MarketplacePin {
  const text = (name: string) =>
    typeof context.flags[name] === 'string' ? (context.flags[name] as string) : undefined
  const ref = text('ref')
  const path = text('path')
  const sparse = text('sparse')
  if (sparse === undefined && more.length > 0)
    throw new UsageError(`'plugin marketplace add' takes one source; unexpected ${more.join(' ')}`)
  return {
    ...(ref !== undefined ? { ref } : {}),
    ...(path !== undefined ? { path } : {}),
    ...(sparse !== undefined ? { sparsePaths: [sparse, ...more] } : {}),
  }
}

async function marketplace(context: InspectContext, paths: PluginPaths): Promise<number> {
  const rest = { ...context, args: context.args.slice(1) }
  const which = subcommand(rest.args, ['add', 'list', 'show', 'remove', 'update'], 'plugin marketplace')
  const argument = rest.args[1]
  switch (which) {
    case 'add': {
      if (argument === undefined)
        throw new UsageError("'plugin marketplace add' needs a folder, a git URL or owner/repo.")
      const added = await addMarketplace(paths, argument, marketplacePin(context, rest.args.slice(2)))
      if (!added.ok) return failed(context, added.error)
      const { manifest, ...entry } = added.value
      if (context.json) {
        printJson(context.io, {
          ...entry,
          plugins: manifest.plugins.map((plugin) => plugin.name),
          problems: manifest.problems,
        })
        return EXIT.ok
      }
      printLines(context.io, [
        `Added marketplace ${entry.name} (${entry.kind === 'git' ? `cloned into ${entry.root}` : entry.root}) with ${manifest.plugins.length} plugin${manifest.plugins.length === 1 ? '' : 's'}: ${manifest.plugins.map((plugin) => plugin.name).join(', ')}.`,
        ...manifest.problems.map((problem) => `warning: ${problem}`),
      ])
      return EXIT.ok
    }
    case 'list': {
      const listed = await listMarketplaces(paths, context.loaded.settings)
      if (!listed.ok) return failed(context, listed.error)
      if (context.json) {
        printJson(context.io, { marketplaces: listed.value })
        return EXIT.ok
      }
      // One line each: the plugins are in `marketplace show <name>`, not dumped here.
      const width = Math.max(0, ...listed.value.map((market) => market.name.length))
      const lines = listed.value.map((market) => {
        const count = (market.plugins ?? []).length
        const plugins =
          market.status === 'declared'
            ? 'declared in settings (added on first install)'
            : market.error !== undefined
              ? `error: ${market.error}`
              : `${count} plugin${count === 1 ? '' : 's'}`
        return `${market.name.padEnd(width)}  ${plugins.padEnd(10)}  ${market.source}`
      })
      if (lines.length === 0)
        lines.push(
          'No marketplaces; add one with z-engine plugin marketplace add <folder | git URL | owner/repo>.',
        )
      else lines.push("(z-engine plugin marketplace show <name> lists a marketplace's plugins.)")
      printLines(context.io, lines)
      return EXIT.ok
    }
    case 'show': {
      if (argument === undefined)
        throw new UsageError("'plugin marketplace show' needs the marketplace's name.")
      const listed = await listMarketplaces(paths, context.loaded.settings)
      if (!listed.ok) return failed(context, listed.error)
      const market = listed.value.find((candidate) => candidate.name === argument)
      if (market === undefined)
        return failed(
          context,
          `no marketplace named ${argument}; known: ${listed.value.map((known) => known.name).join(', ') || 'none'}.`,
        )
      if (context.json) {
        printJson(context.io, market)
        return EXIT.ok
      }
      printLines(context.io, marketplaceDetailLines(market))
      return EXIT.ok
    }
    case 'remove': {
      if (argument === undefined)
        throw new UsageError("'plugin marketplace remove' needs the marketplace's name.")
      const removed = await removeMarketplace(paths, argument)
      return report(context, removed, (value) => [
        `Removed marketplace ${argument}${value.uninstalled.length > 0 ? ` and uninstalled ${value.uninstalled.join(', ')}` : ''}.`,
      ])
    }
    case 'update': {
      const updated = await updateMarketplaces(paths, argument)
      if (!updated.ok) return failed(context, updated.error)
      const broken = updated.value.some((result) => 'error' in result)
      if (context.json) printJson(context.io, { marketplaces: updated.value })
      else
        printLines(
          context.io,
          updated.value.map((result) =>
            'error' in result
              ? `error: ${result.name}: ${result.error}`
              : `Updated ${result.name}: ${result.plugins} plugin${result.plugins === 1 ? '' : 's'}.`,
          ),
        )
      return broken ? EXIT.failed : EXIT.ok
    }
    default: {
      const unreachable: never = which
      return unreachable
    }
  }
}

async function install(context: InspectContext, paths: PluginPaths, id: string): Promise<number> {
  const staged = await stagePluginInstall(paths, context.loaded.settings, id)
  if (!staged.ok) return failed(context, staged.error)
  const plugin = staged.value
  const lines = [
    `${plugin.id}${plugin.version !== undefined ? ` ${plugin.version}` : ''}${plugin.description !== undefined ? ` — ${plugin.description}` : ''}`,
    ...summaryLines(plugin.summary),
  ]
  const interactive = (context.io.stdin as { isTTY?: boolean }).isTTY === true
  if (context.flags.yes !== true) {
    if (!interactive || context.json) {
      await plugin.discard()
      printLines(context.io, lines)
      context.io.stderr.write(
        `z-engine plugin: installing ${id} needs your consent (its hooks and MCP servers run programs); rerun with --yes.\n`,
      )
      return EXIT.failed
    }
    printLines(context.io, lines)
    if (!(await confirm(context.io, `Install ${id}? [y/N] `))) {
      await plugin.discard()
      printLines(context.io, ['Not installed.'])
      return EXIT.failed
    }
  }
  const committed = await plugin.commit(context.configDir)
  if (!committed.ok) return failed(context, committed.error)
  if (context.json) {
    printJson(context.io, { id, installed: true, enabledIn: committed.value.settingsFile, ...plugin.summary })
    return EXIT.ok
  }
  printLines(context.io, [
    ...(context.flags.yes === true ? lines : []),
    `Installed ${id} and enabled it in ${committed.value.settingsFile}.`,
  ])
  return EXIT.ok
}

/** `plugin show`: the plugin, its state and folder, and everything it adds. */
function pluginDetailLines(plugin: PluginListing): string[] {
  return [
    `${plugin.id}${plugin.version !== undefined ? ` ${plugin.version}` : ''}${plugin.description !== undefined ? ` — ${plugin.description}` : ''}`,
    `  ${plugin.enabled ? 'enabled' : 'disabled'}; installed in ${plugin.root}`,
    ...(plugin.summary !== undefined
      ? summaryLines(plugin.summary)
      : [`  error: ${plugin.error ?? 'unreadable'}`]),
  ]
}

/** `plugin marketplace show`: the marketplace and one line per plugin (name, version, description). */
function marketplaceDetailLines(market: MarketplaceListing): string[] {
  const head = `${market.name}  ${market.source}`
  if (market.status === 'declared')
    return [head, '  declared in settings; added on the first install from it']
  if (market.error !== undefined) return [head, `  error: ${market.error}`]
  const plugins = market.plugins ?? []
  const width = Math.max(0, ...plugins.map((plugin) => plugin.name.length))
  const versions = Math.max(0, ...plugins.map((plugin) => (plugin.version ?? '').length))
  return [
    head,
    ...plugins.map((plugin) =>
      `  ${plugin.name.padEnd(width)}  ${(plugin.version ?? '').padEnd(versions)}  ${oneLine(plugin.description ?? '', 80)}`.trimEnd(),
    ),
    `(install one with z-engine plugin install <plugin>@${market.name})`,
  ]
}

function summaryLines(summary: PluginSummary): string[] {
  return pluginSummaryLines(summary).map((line) => `  ${line}`)
}

function countLine(summary: PluginSummary): string {
  return [
    `${summary.commands.length} commands`,
    `${summary.agents.length} agents`,
    `${summary.skills.length} skills`,
    `${summary.hooks.length} hooks`,
    `${summary.mcpServers.length} MCP servers`,
  ].join(', ')
}

function pluginId(context: InspectContext, verb: string): string {
  const id = context.args[1]
  if (id === undefined) throw new UsageError(`'plugin ${verb}' needs <plugin>@<marketplace>.`)
  return id
}

function report<T>(context: InspectContext, result: PluginResult<T>, text: (value: T) => string[]): number {
  if (!result.ok) return failed(context, result.error)
  if (context.json) printJson(context.io, { ok: true, value: result.value })
  else printLines(context.io, text(result.value))
  return EXIT.ok
}

function failed(context: InspectContext, error: string): number {
  context.io.stderr.write(`z-engine plugin: ${error}\n`)
  return EXIT.failed
}

async function confirm(io: CommandIo, question: string): Promise<boolean> {
  const lines = createInterface({ input: io.stdin, output: io.stdout })
  try {
    const answer = await new Promise<string>((done) => lines.question(question, done))
    return /^y(es)?$/i.test(answer.trim())
  } finally {
    lines.close()
  }
}
