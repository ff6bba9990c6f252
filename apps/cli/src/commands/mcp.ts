import { EXIT } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { inspectContext, subcommand } from '../inspect/inspect-context.js'
import { printJson, printLines } from '../output.js'

const HELP = `Usage: z-engine mcp list [--json] [--cwd DIR]

The MCP servers configured for DIR ([mcp.servers.<name>] in the settings layers), each with every
field, the layer and file that set it, and the settings problems about MCP. Project-defined servers
are withheld until the workspace is trusted. Nothing is started.
`

/** `z-engine mcp list`: configured MCP servers and where each came from. */
export async function main(io: CommandIo): Promise<number> {
  const context = await inspectContext(io, HELP)
  if (!context) return EXIT.ok
  subcommand(context.args, ['list'], 'mcp')
  const servers = Object.entries(context.loaded.settings.mcp.servers).map(([name, server]) => {
    const prefix = `mcp.servers.${name}`
    const sources = context.loaded.explain
      .filter((entry) => entry.path === prefix || entry.path.startsWith(`${prefix}.`))
      .flatMap((entry) => entry.sources.map((source) => ({ layer: source.layer, file: source.file })))
    const origin = sources.at(-1)
    return { name, ...server, ...(origin ? { layer: origin.layer, file: origin.file } : {}) }
  })
  const notices = context.loaded.notices.filter((notice) => notice.key?.startsWith('mcp') ?? false)
  const withheld = context.loaded.trustRequired.filter((category) => category.startsWith('mcp'))
  const code = notices.some((notice) => notice.severity === 'error') ? EXIT.failed : EXIT.ok
  if (context.json) {
    printJson(io, { projectRoot: context.projectRoot, servers, withheld, notices })
    return code
  }
  const lines = servers.map((server) => {
    const target =
      'command' in server && server.command ? `${server.command}` : 'url' in server ? String(server.url) : ''
    return `${server.name}  ${target}  (${server.layer ?? 'settings'}${server.file ? `: ${server.file}` : ''})${server.enabled === false ? '  [disabled]' : ''}`
  })
  if (lines.length === 0) lines.push(`No MCP servers configured for ${context.projectRoot}.`)
  if (withheld.length > 0)
    lines.push("note: this project's MCP servers are withheld until you trust the workspace.")
  for (const notice of notices) lines.push(`${notice.severity}: ${notice.message}`)
  printLines(io, lines)
  return code
}
