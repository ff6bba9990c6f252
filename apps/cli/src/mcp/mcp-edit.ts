import { readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseMcpJsonLayer } from '@z-engine/engine/internal'
import { parseCommandArgs } from '../args.js'
import { EXIT, UsageError, unknownWordError } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { projectPlace } from '../cwd.js'

/** The subcommands that change or show one server, in Claude Code's spelling. */
export const MCP_EDIT_SUBCOMMANDS = ['add', 'add-json', 'remove', 'get'] as const

const HELP = `Usage: z-engine mcp add [-s project] [-t stdio|http|sse] [-e KEY=VALUE…] [-H "Header: v"…] <name> <command|url> [args…]
       z-engine mcp add-json [-s project] <name> '<json>'
       z-engine mcp remove [-s project] <name>
       z-engine mcp get <name>

Claude Code's 'claude mcp' arguments. The project scope writes the project's .mcp.json as Claude
Code does ({"mcpServers": {name: {type, command, args, env} | {type, url, headers}}}); sessions read
it once the workspace is trusted. Put the server's own flags after '--':
  z-engine mcp add -s project files -- npx -y @modelcontextprotocol/server-filesystem .
Claude Code's local and user scopes live in ~/.claude.json, which z-engine does not read: they are
refused (use -s project, or [mcp.servers.<name>] in ~/.config/z-engine/settings.toml).
`

type Json = Record<string, unknown>

/** `z-engine mcp add|add-json|remove|get`. */
export async function mcpEdit(io: CommandIo): Promise<number> {
  const [sub, ...rest] = io.argv
  const end = rest.indexOf('--')
  const before = end === -1 ? rest : rest.slice(0, end)
  const after = end === -1 ? [] : rest.slice(end + 1)
  const { values, positionals } = parseCommandArgs(before, {
    scope: { type: 'string', short: 's' },
    transport: { type: 'string', short: 't' },
    env: { type: 'string', short: 'e', multiple: true },
    header: { type: 'string', short: 'H', multiple: true },
    cwd: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  })
  if (values.help) {
    io.stdout.write(HELP)
    return EXIT.ok
  }
  const { root } = await projectPlace(io.cwd, values.cwd, io.env.HOME)
  const file = join(root, '.mcp.json')
  if (sub === 'get') return get(io, file, positionals, values.json === true)
  const scope = values.scope ?? 'local'
  if (scope === 'local' || scope === 'user')
    throw new UsageError(
      `-s ${scope}${values.scope === undefined ? " (Claude Code's default)" : ''}: Claude Code keeps ${scope} servers in ~/.claude.json, which z-engine does not read. Use -s project (the project's .mcp.json), or [mcp.servers.<name>] in ~/.config/z-engine/settings.toml.`,
    )
  if (scope !== 'project') throw unknownWordError('-s value', scope, ['local', 'project', 'user'])
  const servers = await readServers(file)
  const [name] = positionals
  if (name === undefined) throw new UsageError(`mcp ${sub} needs a server name.`)
  if (sub === 'remove') {
    if (!(name in servers))
      throw new UsageError(
        `No MCP server named "${name}" in ${file}. Configured there: ${Object.keys(servers).join(', ') || 'none'}.`,
      )
    delete servers[name]
    await writeServers(file, servers)
    io.stdout.write(`Removed MCP server ${name} from project config\nFile modified: ${file}\n`)
    return EXIT.ok
  }
  if (name in servers) throw new UsageError(`MCP server ${name} already exists in project config (${file}).`)
  const entry =
    sub === 'add-json' ? fromJson(positionals.slice(1)) : fromArgs(values, positionals.slice(1), after)
  // Checked as a session reads it: an entry it would skip is refused now.
  const layer = parseMcpJsonLayer(file, JSON.stringify({ mcpServers: { [name]: entry } }))
  const errors = layer.notices.filter((notice) => notice.severity === 'error')
  if (errors.length > 0) throw new UsageError(errors.map((error) => error.message).join('; '))
  servers[name] = entry
  await writeServers(file, servers)
  const kind = String(entry.type ?? (entry.url !== undefined ? 'http' : 'stdio'))
  io.stdout.write(`Added ${kind} MCP server ${name} to project config\nFile modified: ${file}\n`)
  return EXIT.ok
}

/** `add`: stdio (`<command> [args…]`, args also after `--`) or http/sse (`<url>`), as Claude Code writes them. */
function fromArgs(
  values: { transport?: string; env?: string[]; header?: string[] },
  words: readonly string[],
  after: readonly string[],
): Json {
  const transport = values.transport ?? 'stdio'
  const [target, ...args] = [...words, ...after]
  if (target === undefined) throw new UsageError('mcp add needs the command (stdio) or the URL (http, sse).')
  if (transport === 'stdio') {
    const env = Object.fromEntries(
      (values.env ?? []).map((pair) => {
        const eq = pair.indexOf('=')
        if (eq <= 0) throw new UsageError(`-e takes KEY=VALUE (got '${pair}').`)
        return [pair.slice(0, eq), pair.slice(eq + 1)]
      }),
    )
    if ((values.header ?? []).length > 0) throw new UsageError('-H goes with --transport http or sse.')
    return { type: 'stdio', command: target, args, env }
  }
  if (transport !== 'http' && transport !== 'sse')
    throw unknownWordError('--transport value', transport, ['stdio', 'http', 'sse'])
  if (args.length > 0)
    throw new UsageError(`--transport ${transport} takes a URL only (got also: ${args.join(' ')}).`)
  if ((values.env ?? []).length > 0) throw new UsageError('-e goes with --transport stdio.')
  const headers = Object.fromEntries(
    (values.header ?? []).map((line) => {
      const colon = line.indexOf(':')
      if (colon <= 0) throw new UsageError(`-H takes "Name: value" (got '${line}').`)
      return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()]
    }),
  )
  return { type: transport, url: target, ...(Object.keys(headers).length > 0 ? { headers } : {}) }
}

/** `add-json`: the entry as given (Claude Code adds `args: []` to a stdio entry without them). */
function fromJson(words: readonly string[]): Json {
  const [text] = words
  if (text === undefined) throw new UsageError("mcp add-json needs the server's JSON.")
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`The server JSON is not valid: ${(error as Error).message}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError('The server JSON must be an object such as {"command":"node","args":["server.js"]}.')
  const entry = value as Json
  return entry.command !== undefined && entry.args === undefined ? { ...entry, args: [] } : entry
}

async function get(
  io: CommandIo,
  file: string,
  positionals: readonly string[],
  json: boolean,
): Promise<number> {
  const [name] = positionals
  if (name === undefined) throw new UsageError('mcp get needs a server name.')
  const servers = await readServers(file)
  const entry = servers[name]
  if (entry === undefined) {
    io.stderr.write(
      `No MCP server named "${name}" in ${file}. 'z-engine mcp list' shows the servers of every settings layer.\n`,
    )
    return EXIT.failed
  }
  if (json)
    io.stdout.write(`${JSON.stringify({ name, scope: 'project', file, ...(entry as Json) }, null, 2)}\n`)
  else {
    const lines = [`${name}:`, '  Scope: Project config (shared via .mcp.json)', `  File: ${file}`]
    for (const [key, value] of Object.entries(entry as Json))
      lines.push(`  ${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    io.stdout.write(
      `${lines.join('\n')}\n\nTo remove this server, run: z-engine mcp remove ${name} -s project\n`,
    )
  }
  return EXIT.ok
}

/** The `mcpServers` of a `.mcp.json` (empty when there is none); a broken file is a usage error. */
async function readServers(file: string): Promise<Json> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw error
  }
  try {
    const parsed = JSON.parse(text) as { mcpServers?: Json }
    return { ...(parsed.mcpServers ?? {}) }
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON (${(error as Error).message}); fix it first.`)
  }
}

/** Writes the servers back, keeping the file's other keys; replaced whole (a temp file renamed). */
async function writeServers(file: string, servers: Json): Promise<void> {
  let rest: Json = {}
  try {
    rest = JSON.parse(await readFile(file, 'utf8')) as Json
  } catch {
    rest = {}
  }
  const temp = `${file}.${process.pid}.tmp`
  await writeFile(temp, `${JSON.stringify({ ...rest, mcpServers: servers }, null, 2)}\n`)
  await rename(temp, file)
}
