import { probeMcpServers, resolveServerSpecs, withheldServers } from '@z-engine/engine/mcp'
import type { McpServerSettings } from '@z-engine/protocol'
import { EXIT } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { inspectContext, subcommand } from '../inspect/inspect-context.js'
import { MCP_EDIT_SUBCOMMANDS, mcpEdit } from '../mcp/mcp-edit.js'
import { printJson, printLines } from '../output.js'

const HELP = `Usage: z-engine mcp list [--json] [--cwd DIR]
       z-engine mcp add|add-json|remove|get …   (Claude Code's arguments: z-engine mcp add --help)

The MCP servers configured for DIR ([mcp.servers.<name>] in the settings layers, the project's
.mcp.json, and Claude Code's ~/.claude.json: user scope, and local scope for this project), each
with every field, the layer and file that set it, and its real status: every
enabled server is started as a session would start it (each within its timeout_ms), its tools
counted, its last error and stderr tail kept, and then stopped. A server in several of Claude Code's
scopes is the local one, else the project's, else the user's. Project-defined servers are
withheld until the workspace is trusted, and in an untrusted workspace no server is started at all
(status "not started"; one line names the withheld servers and how to trust the workspace; with
--json "withheldServers"). With --json each server has "resolved": what it will start with, \${VAR}
expanded (command, args, cwd, url; an env or header value taken from a variable shows as <$VAR>);
"notices" (problems in the files, each with
a code such as json_invalid, server_invalid, field_ignored) and "issues" (entries that cannot start
or start with unset variables: code env_missing with "variables", url_invalid, command_missing, …).
`

/** `z-engine mcp list`: configured MCP servers, where each came from, and whether it starts. */
export async function main(io: CommandIo): Promise<number> {
  // Claude Code's `claude mcp add|add-json|remove|get` (apps/cli/src/mcp/mcp-edit.ts).
  if ((MCP_EDIT_SUBCOMMANDS as readonly string[]).includes(io.argv[0] ?? '')) return mcpEdit(io)
  const context = await inspectContext(io, HELP)
  if (!context) return EXIT.ok
  subcommand(context.args, ['list'], 'mcp')
  // In an untrusted project nothing is started, not even the user's own servers: they would run
  // in the project's folder, where a `node_modules/.bin` or a toolchain file picks the program.
  const probe = context.trusted
    ? await probeMcpServers({
        loaded: context.loaded,
        trusted: context.trusted,
        projectRoot: context.projectRoot,
        env: io.env,
      })
    : { servers: [], notices: [] }
  // What each server will be started with: `${VAR}` expanded as a session expands it.
  const specs = resolveServerSpecs(context.loaded.settings.mcp.servers, io.env, context.projectRoot).specs
  const servers = Object.entries(context.loaded.settings.mcp.servers).map(([name, server]) => {
    const spec = specs.find((candidate) => candidate.name === name)
    const prefix = `mcp.servers.${name}`
    const sources = context.loaded.explain
      .filter((entry) => entry.path === prefix || entry.path.startsWith(`${prefix}.`))
      .flatMap((entry) => entry.sources.map((source) => ({ layer: source.layer, file: source.file })))
    const origin = sources.at(-1)
    const found = probe.servers.find((info) => info.name === name)
    const status = found
      ? {
          status: found.status,
          transport: found.transport,
          toolCount: found.toolCount,
          promptCount: found.promptCount,
          ...(found.lastError !== undefined ? { lastError: found.lastError } : {}),
          stderr: found.stderr,
        }
      : { status: server.enabled === false ? 'disabled' : context.trusted ? 'invalid' : 'not started' }
    const plugin = context.loaded.plugins.find((active) => active.mcpServerNames.includes(name))?.id
    return {
      name,
      ...server,
      ...(spec !== undefined ? { resolved: resolvedView(spec, server) } : {}),
      ...(origin ? { layer: origin.layer, file: origin.file } : {}),
      ...(plugin !== undefined ? { plugin } : {}),
      ...status,
    }
  })
  // Problems with a server entry (`mcp.servers.x…`) and with the .mcp.json file as a whole.
  const notices = context.loaded.notices.filter(
    (notice) =>
      (notice.key?.startsWith('mcp') ?? false) ||
      notice.layer === 'mcpJson' ||
      notice.layer === 'claudeJsonUser' ||
      notice.layer === 'claudeJsonLocal',
  )
  // The same resolution a session makes before starting servers: each problem with its code
  // (`env_missing` names the unset variables).
  const issues = resolveServerSpecs(context.loaded.settings.mcp.servers, io.env, context.projectRoot).problems
  const withheld = context.loaded.trustRequired.filter((category) => category.startsWith('mcp'))
  const problems = probe.notices
    .filter((notice) => notice.level === 'warning')
    .map((notice) => notice.message)
  const code = notices.some((notice) => notice.severity === 'error') ? EXIT.failed : EXIT.ok
  // The project's own servers an untrusted workspace leaves out, by name.
  const withheldNames = context.trusted
    ? []
    : withheldServers(context.loaded.readLayers, Object.keys(context.loaded.settings.mcp.servers))
  if (context.json) {
    printJson(io, {
      projectRoot: context.projectRoot,
      servers,
      withheld,
      withheldServers: withheldNames,
      notices,
      issues,
      problems,
    })
    return code
  }
  const lines = servers.map((server) => {
    const target =
      'command' in server && server.command ? `${server.command}` : 'url' in server ? String(server.url) : ''
    const tools = 'toolCount' in server ? `, ${server.toolCount} tools` : ''
    const error = 'lastError' in server ? ` — ${server.lastError}` : ''
    return `${server.name}  ${target}  [${server.status}${tools}]${error}  (${server.layer ?? 'settings'}${server.file ? `: ${server.file}` : ''})`
  })
  // Untrusted: one line says what happened and what to do (nothing started, the project's withheld).
  if (!context.trusted && (servers.length > 0 || withheldNames.length > 0))
    lines.push(untrustedLine(servers.length, withheldNames))
  else if (lines.length === 0) lines.push(`No MCP servers configured for ${context.projectRoot}.`)
  for (const notice of notices) lines.push(`${notice.severity}: ${notice.message}`)
  for (const problem of problems) lines.push(`warning: ${problem}`)
  printLines(io, lines)
  return code
}

/** The one line `mcp list` prints in an untrusted workspace: what was not started or withheld, and how to trust it. */
function untrustedLine(listed: number, withheld: readonly string[]): string {
  const names = withheld.join(', ')
  const project =
    withheld.length === 0
      ? ''
      : `${listed > 0 ? '; ' : ''}this project's server${withheld.length === 1 ? '' : 's'} ${names} ${withheld.length === 1 ? 'is' : 'are'} withheld`
  const started = listed > 0 ? `the server${listed === 1 ? ' above was' : 's above were'} not started` : ''
  return `The workspace is not trusted: ${started}${project}. Trust it with 'z-engine trust' (or /trust in the chat), then run 'z-engine mcp list' again.`
}

/**
 * A server as it will start: command, args, cwd and url with `${VAR}` expanded; an env or header
 * value that came from a variable shows as `<$VAR>` so `mcp list` never prints a secret.
 */
function resolvedView(
  spec: ReturnType<typeof resolveServerSpecs>['specs'][number],
  server: McpServerSettings,
) {
  const masked = (written: Record<string, string> | undefined, values: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(values).map(([key, value]) => {
        const template = written?.[key]
        if (template === undefined || !template.includes('${')) return [key, value]
        return [key, template.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g, '<$$$1>')]
      }),
    )
  return spec.transport === 'stdio'
    ? {
        transport: spec.transport,
        command: spec.command,
        args: spec.args,
        cwd: spec.cwd,
        env: masked(server.env, spec.env),
      }
    : { transport: spec.transport, url: spec.url, headers: masked(server.headers, spec.headers) }
}
