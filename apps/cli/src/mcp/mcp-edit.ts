import { readFile, rename, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import {
  claudeJsonFile,
  claudeJsonServers,
  parseMcpJsonLayer,
  readClaudeJson,
  updateClaudeJson,
  withClaudeJsonServers,
} from '@z-engine/engine/settings'
import { parseCommandArgs } from '../args.js'
import { EXIT, UsageError, unknownWordError } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { projectPlace } from '../cwd.js'

/** The subcommands that change or show one server, in Claude Code's spelling. */
export const MCP_EDIT_SUBCOMMANDS = ['add', 'add-json', 'remove', 'get'] as const

const HELP = `Usage: z-engine mcp add [-s local|project|user] [-t stdio|http|sse] [-e KEY=VALUE…] [-H "Header: v"…] <name> <command|url> [args…]
       z-engine mcp add-json [-s local|project|user] <name> '<json>'
       z-engine mcp remove [-s local|project|user] <name>
       z-engine mcp get [--json] <name>

Claude Code's 'claude mcp' arguments, writing the files Claude Code writes:
  -s local    (the default, as in Claude Code) ~/.claude.json, projects["<project>"].mcpServers:
              yours, in this project only
  -s project  the project's .mcp.json: shared through the repository; sessions read it once the
              workspace is trusted
  -s user     ~/.claude.json, top-level mcpServers: yours, in every project
~/.claude.json is $CLAUDE_CONFIG_DIR/.claude.json when CLAUDE_CONFIG_DIR is set. A server in more
than one scope: local wins over project, project over user. 'remove' without -s removes the server
from the one scope that has it; 'get' shows the one that wins. Put the server's own flags after '--':
  z-engine mcp add files -- npx -y @modelcontextprotocol/server-filesystem .
`

type Json = Record<string, unknown>

/** Claude Code's scopes, in its order of precedence (the first wins). */
const SCOPES = ['local', 'project', 'user'] as const
type Scope = (typeof SCOPES)[number]

/** How `claude mcp get` names each scope. */
const SCOPE_LABEL: Record<Scope, string> = {
  local: 'Local config (private to you in this project)',
  project: 'Project config (shared via .mcp.json)',
  user: 'User config (available in all your projects)',
}

/** Where each scope lives for this command: the project, its `.mcp.json`, and `~/.claude.json`. */
interface Places {
  root: string
  mcpJson: string
  claudeJson: string
}

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
  const home = io.env.HOME ?? homedir()
  const { root } = await projectPlace(io.cwd, values.cwd, home)
  const places: Places = {
    root,
    mcpJson: join(root, '.mcp.json'),
    claudeJson: claudeJsonFile(home, io.env),
  }
  const scope = values.scope === undefined ? undefined : scopeOf(values.scope)
  const [name] = positionals
  if (name === undefined) throw new UsageError(`mcp ${sub} needs a server name.`)
  try {
    if (sub === 'get') return await get(io, places, name, values.json === true)
    if (sub === 'remove') return await remove(io, places, name, scope)
    const entry =
      sub === 'add-json' ? fromJson(positionals.slice(1)) : fromArgs(values, positionals.slice(1), after)
    return await add(io, places, scope ?? 'local', name, entry)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    io.stderr.write(`${error.message}\n`)
    return EXIT.failed
  }
}

/** A config file that cannot be read or written: exit 1 with the message, nothing changed. */
class ConfigError extends Error {}

function scopeOf(word: string): Scope {
  if ((SCOPES as readonly string[]).includes(word)) return word as Scope
  throw unknownWordError('-s value', word, SCOPES)
}

async function add(io: CommandIo, places: Places, scope: Scope, name: string, entry: Json): Promise<number> {
  const file = fileOf(places, scope)
  // Checked as a session reads it: an entry it would skip is refused now.
  const layer = parseMcpJsonLayer(file, JSON.stringify({ mcpServers: { [name]: entry } }))
  const errors = layer.notices.filter((notice) => notice.severity === 'error')
  if (errors.length > 0) throw new UsageError(errors.map((error) => error.message).join('; '))
  await changeServers(places, scope, (servers) => {
    if (name in servers)
      throw new UsageError(`MCP server ${name} already exists in ${scope} config (${file}).`)
    return { ...servers, [name]: entry }
  })
  const kind = String(entry.type ?? (entry.url !== undefined ? 'http' : 'stdio'))
  io.stdout.write(
    `Added ${kind} MCP server ${name} to ${scope} config\nFile modified: ${where(places, scope)}\n`,
  )
  return EXIT.ok
}

/** `remove`: from the scope given, or from the one scope that has the server (as Claude Code does). */
async function remove(
  io: CommandIo,
  places: Places,
  name: string,
  scope: Scope | undefined,
): Promise<number> {
  const holders: Scope[] = []
  for (const candidate of scope === undefined ? SCOPES : [scope])
    if (name in (await readServers(places, candidate))) holders.push(candidate)
  if (holders.length === 0) {
    io.stderr.write(
      scope === undefined
        ? `No MCP server named "${name}" in any scope (local, project, user).\n`
        : `No MCP server named "${name}" in ${scope} config (${where(places, scope)}).\n`,
    )
    return EXIT.failed
  }
  if (holders.length > 1) {
    io.stderr.write(
      [
        `MCP server "${name}" exists in multiple scopes:`,
        ...holders.map((holder) => `  - ${SCOPE_LABEL[holder]} (${where(places, holder)})`),
        '',
        'To remove from a specific scope, use:',
        ...holders.map((holder) => `  z-engine mcp remove ${name} -s ${holder}`),
      ].join('\n') + '\n',
    )
    return EXIT.failed
  }
  const [from] = holders as [Scope]
  await changeServers(places, from, (servers) => {
    const { [name]: _removed, ...others } = servers
    return others
  })
  io.stdout.write(`Removed MCP server ${name} from ${from} config\nFile modified: ${where(places, from)}\n`)
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

/** `get`: the server as it wins (local over project over user), with its scope and file. */
async function get(io: CommandIo, places: Places, name: string, json: boolean): Promise<number> {
  for (const scope of SCOPES) {
    const entry = (await readServers(places, scope))[name]
    if (entry === undefined) continue
    const file = fileOf(places, scope)
    if (json) {
      io.stdout.write(`${JSON.stringify({ name, scope, file, ...(entry as Json) }, null, 2)}\n`)
      return EXIT.ok
    }
    const lines = [`${name}:`, `  Scope: ${SCOPE_LABEL[scope]}`, `  File: ${where(places, scope)}`]
    for (const [key, value] of Object.entries(entry as Json))
      lines.push(`  ${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    io.stdout.write(
      `${lines.join('\n')}\n\nTo remove this server, run: z-engine mcp remove ${name} -s ${scope}\n`,
    )
    return EXIT.ok
  }
  io.stderr.write(
    `No MCP server named "${name}" in any scope (local, project, user). 'z-engine mcp list' shows the servers of every settings layer.\n`,
  )
  return EXIT.failed
}

function fileOf(places: Places, scope: Scope): string {
  return scope === 'project' ? places.mcpJson : places.claudeJson
}

/** The file as Claude Code prints it: a local scope names its project too. */
function where(places: Places, scope: Scope): string {
  return scope === 'local' ? `${places.claudeJson} [project: ${places.root}]` : fileOf(places, scope)
}

/** One scope's servers (empty when the file or the scope has none); a broken file is a ConfigError. */
async function readServers(places: Places, scope: Scope): Promise<Json> {
  if (scope !== 'project') {
    const read = await readClaudeJson(places.claudeJson)
    if (!read.ok) throw new ConfigError(read.error)
    return claudeJsonServers(read.config, scope, places.root)
  }
  let text: string
  try {
    text = await readFile(places.mcpJson, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw error
  }
  try {
    const parsed = JSON.parse(text) as { mcpServers?: Json }
    return { ...(parsed.mcpServers ?? {}) }
  } catch (error) {
    throw new ConfigError(`${places.mcpJson} is not valid JSON (${(error as Error).message}); fix it first.`)
  }
}

/**
 * Changes one scope's servers, keeping everything else in its file: `~/.claude.json` under Claude
 * Code's lock with its mode kept (the engine's `updateClaudeJson`), `.mcp.json` replaced whole
 * through a temp file renamed over it. `change` may throw a UsageError; nothing is written then.
 */
async function changeServers(places: Places, scope: Scope, change: (servers: Json) => Json): Promise<void> {
  if (scope !== 'project') {
    const result = await updateClaudeJson(places.claudeJson, (config) => ({
      config: withClaudeJsonServers(
        config,
        scope,
        places.root,
        change(claudeJsonServers(config, scope, places.root)),
      ),
      value: undefined,
    }))
    if (!result.ok) throw new ConfigError(result.error)
    return
  }
  const servers = change(await readServers(places, scope))
  let rest: Json = {}
  try {
    rest = JSON.parse(await readFile(places.mcpJson, 'utf8')) as Json
  } catch {
    rest = {}
  }
  const temp = `${places.mcpJson}.${process.pid}.tmp`
  await writeFile(temp, `${JSON.stringify({ ...rest, mcpServers: servers }, null, 2)}\n`)
  await rename(temp, places.mcpJson)
}
