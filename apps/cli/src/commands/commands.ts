import {
  buildCommandCatalog,
  type CatalogEntry,
  expandCommand,
  loadAgentDefinitions,
  loadCommandDefinitions,
  openStandaloneExpansion,
  resolveCommand,
} from '@z-engine/engine/definitions'
import { pluginDefinitionSources } from '@z-engine/engine/plugins'
import { EXIT, UsageError } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { type InspectContext, inspectContext, subcommand } from '../inspect/inspect-context.js'
import { oneLine, printJson, printLines } from '../output.js'

const HELP = `Usage: z-engine commands list [--json] [--cwd DIR]
       z-engine commands expand <name> [args…] [--json] [--cwd DIR]

list: every / command a session in DIR resolves, in resolution order (engine built-ins, custom
commands from .z-engine/commands, .claude/commands and the user folders, prompt built-ins), with
each custom command's parsed fields, file and layer, and the files that were skipped (exit 1 if any).

expand: the prompt the command would submit, without starting a turn. Embedded !\`cmd\` lines run
only when the permission policy would allow them in a session (read-only commands, allow rules),
confined by the sandbox as they would be there ([shell.sandbox], or what the policy auto-allowed
when a backend exists), with the [shell.env] environment; @file references are inlined when
reading them is allowed. Notices say what was left out.
`

/** `z-engine commands list|expand`: the command catalog, and what a command expands to. */
export async function main(io: CommandIo): Promise<number> {
  const context = await inspectContext(io, HELP)
  if (!context) return EXIT.ok
  const which = subcommand(context.args, ['list', 'expand'], 'commands')
  const loaded = await loadCommandDefinitions(context.roots)
  const catalog = buildCommandCatalog({ custom: loaded.definitions })
  if (which === 'expand') return expand(context, catalog.entries)
  const code = loaded.errors.length > 0 ? EXIT.failed : EXIT.ok
  if (context.json) {
    printJson(io, {
      projectRoot: context.projectRoot,
      commands: catalog.entries,
      shadowed: loaded.shadowed,
      errors: loaded.errors,
      warnings: catalog.warnings,
    })
    return code
  }
  const width = Math.max(8, ...catalog.entries.map((entry) => entry.name.length + 1))
  const lines = catalog.entries.map(
    (entry) =>
      `${`/${entry.name}`.padEnd(width)}  ${origin(entry).padEnd(14)}  ${oneLine(entry.description, 70)}`,
  )
  for (const warning of catalog.warnings) lines.push(`warning: ${warning}`)
  for (const definition of loaded.definitions)
    for (const warning of definition.warnings)
      lines.push(`warning: ${definition.source.path}: ${warning.message} [${warning.code}]`)
  for (const error of loaded.errors)
    lines.push(
      `error: ${error.path}${error.line !== undefined ? `:${error.line}` : ''} [${error.layer}]: ${error.message} [${error.code}]`,
    )
  printLines(io, lines)
  return code
}

function origin(entry: CatalogEntry): string {
  switch (entry.kind) {
    case 'engine':
      return 'engine'
    case 'prompt':
      return 'built-in'
    case 'custom':
      return entry.definition.source.layer
    case 'mcp':
      return `mcp:${entry.prompt.server}`
    default: {
      const unreachable: never = entry
      return unreachable
    }
  }
}

async function expand(context: InspectContext, entries: readonly CatalogEntry[]): Promise<number> {
  const [, name, ...rest] = context.args
  if (name === undefined)
    throw new UsageError("'commands expand' needs a command name, e.g. z-engine commands expand review.")
  const resolution = resolveCommand({ entries, warnings: [] }, name)
  if (!resolution.ok) {
    context.io.stderr.write(`z-engine: ${resolution.notice}\n`)
    return EXIT.failed
  }
  const entry = resolution.entry
  if (entry.kind === 'engine' || entry.kind === 'mcp') {
    context.io.stderr.write(
      `z-engine: /${entry.name} is ${entry.kind === 'engine' ? 'answered by the session itself' : 'an MCP prompt'}; it has no template to expand.\n`,
    )
    return EXIT.failed
  }
  // The session's gate and sandbox over the same settings: `@file` reads and `!` lines are decided
  // as a session decides them, and allowed lines run confined as they would there.
  const expansion = await openStandaloneExpansion({
    settings: context.loaded.settings,
    layers: context.loaded.layers,
    projectRoot: context.projectRoot,
    home: context.home,
    env: context.io.env,
    engineDirs: [context.configDir, context.dataDir],
  })
  const agents = await loadAgentDefinitions(context.roots)
  const expanded = await expandCommand(entry.definition, rest.join(' '), {
    projectRoot: context.projectRoot,
    home: context.home,
    trusted: context.trusted,
    pluginVariables: (id) =>
      pluginDefinitionSources(context.loaded.plugins).find((plugin) => plugin.id === id)?.variables,
    canRead: expansion.canRead,
    canRun: expansion.canRun,
    runShell: expansion.runShell,
    knownAgentTypes: agents.definitions.map((agent) => agent.name),
  }).finally(() => expansion.close())
  const notices = [...(expansion.warning !== undefined ? [expansion.warning] : []), ...expanded.notices]
  if (context.json) {
    printJson(context.io, {
      name: entry.name,
      kind: entry.kind,
      source: entry.definition.source,
      ...expanded,
      notices,
    })
    return EXIT.ok
  }
  const lines = [expanded.content[1].text, ...expanded.reminders]
  if (expanded.model !== undefined) lines.push(`(model for this turn: ${expanded.model})`)
  if (expanded.turnRules.length > 0)
    lines.push(`(rules granted for this turn: ${expanded.turnRules.join(', ')})`)
  printLines(context.io, lines)
  for (const notice of notices) context.io.stderr.write(`notice: ${notice}\n`)
  return EXIT.ok
}
