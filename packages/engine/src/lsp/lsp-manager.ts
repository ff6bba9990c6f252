import { readFile } from 'node:fs/promises'
import { extname, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ArgvConfiner, ProcessScope } from '@z-engine/host'
import type { Settings } from '@z-engine/protocol'
import type { LspPort, ToolResult } from '@z-engine/tools'
import type { Diagnostic } from 'vscode-languageserver-protocol/node'
import {
  displayUri,
  type LineReader,
  renderCalls,
  renderDiagnostics,
  renderDocumentSymbols,
  renderHover,
  renderLocations,
  renderRenameEdits,
  renderWorkspaceSymbols,
} from './render.js'
import { serverCommandPath } from './server-command.js'
import type { ServerConnection } from './server-connection.js'
import { BUILTIN_SERVERS, type LspServerSpec } from './server-table.js'

/** How long a write waits for a server that is still starting before it gives up on diagnostics. */
const START_WAIT_MS = 20_000

/** What a session's language servers are built from. */
export interface LspManagerOptions {
  root: string
  settings: Settings['lsp']
  /** The child environment (PATH finds the servers). */
  env: Record<string, string>
  scope: ProcessScope
  /**
   * Whether the workspace is trusted now: a language server runs code the project influences
   * (its configuration, plugins, build scripts), so none starts in an untrusted one (issue 34).
   */
  trusted(): boolean
  /** Puts a server into the session's sandbox (the same view as a write-confined command). */
  confine?: ArgvConfiner
  notice(level: 'info' | 'warning' | 'error', message: string): void
}

/** One server's life in this session. */
interface Entry {
  spec: LspServerSpec
  commandPath: string
  connection?: ServerConnection | undefined
  starting?: Promise<ServerConnection> | undefined
  crashes: number
  /** Set after the second crash: the server stays off for the session. */
  failed?: string
}

type Request = Parameters<LspPort['query']>[0]

/**
 * A session's language servers (the LspPort; spec 000 "MCP and language servers"): started lazily,
 * one per server the first time a file it covers is asked about or written, when its command is
 * installed. A crashed server restarts once on its next use; a second crash turns it off with a
 * notice. Every server is shut down with the session.
 */
export class LspManager implements LspPort {
  readonly #options: LspManagerOptions
  readonly #specs: LspServerSpec[]
  readonly #entries = new Map<string, Entry>()
  readonly #missingNoticed = new Set<string>()
  #closed = false

  constructor(options: LspManagerOptions) {
    this.#options = options
    const configured = Object.entries(options.settings.servers).map(
      ([name, server]): LspServerSpec => ({
        name,
        command: server.command,
        args: server.args ?? [],
        extensions: (server.extensions ?? []).map((extension) => extension.replace(/^\./, '').toLowerCase()),
        ...(server.initialization_options !== undefined
          ? { initializationOptions: server.initialization_options as Record<string, unknown> }
          : {}),
        install: `the command ${server.command} configured in [lsp.servers.${name}]`,
      }),
    )
    // A configured server replaces a built-in of the same name (its extensions too, when given).
    const names = new Set(configured.map((spec) => spec.name))
    this.#specs = [
      ...configured.map((spec) => {
        const builtin = BUILTIN_SERVERS.find((candidate) => candidate.name === spec.name)
        return spec.extensions.length === 0 && builtin ? { ...spec, extensions: builtin.extensions } : spec
      }),
      ...BUILTIN_SERVERS.filter((spec) => !names.has(spec.name)),
    ]
  }

  /** Whether any server's command is installed (else the LSP tool is not offered). */
  anyInstalled(): boolean {
    return this.#specs.some((spec) => serverCommandPath(spec, this.#options) !== undefined)
  }

  covers(path: string): boolean {
    const extension = extname(path).slice(1).toLowerCase()
    return this.#specs.some((spec) => spec.extensions.includes(extension))
  }

  async query(request: Request, signal: AbortSignal): Promise<ToolResult> {
    const { root } = this.#options
    if (request.filePath === undefined) {
      // workspaceSymbol without a file asks every server that runs.
      const running = [...this.#entries.values()].flatMap((entry) =>
        entry.connection?.alive ? [entry.connection] : [],
      )
      if (running.length === 0)
        return fail(
          'not_started',
          'No language server is running yet. Give `filePath` (any file of the language) so its server starts, or use Grep.',
        )
      const answers = await Promise.all(
        running.map((connection) =>
          connection
            .request<Parameters<typeof renderWorkspaceSymbols>[0]>(
              'workspace/symbol',
              { query: request.query ?? '' },
              signal,
            )
            .catch(() => []),
        ),
      )
      return ok(
        renderWorkspaceSymbols(
          answers.flatMap((answer) => answer ?? []),
          root,
        ),
      )
    }
    const filePath = request.filePath
    const got = await this.#connectionFor(filePath)
    if (!got.ok) return fail(got.code, got.message)
    const connection = got.connection
    await connection.sync(filePath)
    const uri = pathToFileURL(filePath).href
    const display = relative(root, filePath) || filePath
    const readLine = lineReader()
    const position = async () => {
      const resolved = await resolvePosition(filePath, request)
      if (!resolved.ok) throw new PositionError(resolved.message)
      return { textDocument: { uri }, position: resolved.position }
    }
    const unsupported = (what: string) =>
      fail('unsupported', `${connection.spec.name} does not support ${what}.`)
    const caps = connection.capabilities
    try {
      switch (request.operation) {
        case 'goToDefinition':
          return ok(
            await renderLocations(
              await connection.request('textDocument/definition', await position(), signal),
              root,
              readLine,
              'definition',
            ),
          )
        case 'goToImplementation':
          if (!caps.implementationProvider) return unsupported('implementations')
          return ok(
            await renderLocations(
              await connection.request('textDocument/implementation', await position(), signal),
              root,
              readLine,
              'implementation',
            ),
          )
        case 'findReferences':
          return ok(
            await renderLocations(
              await connection.request(
                'textDocument/references',
                { ...(await position()), context: { includeDeclaration: true } },
                signal,
              ),
              root,
              readLine,
              'reference',
            ),
          )
        case 'hover':
          return ok(renderHover(await connection.request('textDocument/hover', await position(), signal)))
        case 'documentSymbol':
          return ok(
            renderDocumentSymbols(
              await connection.request('textDocument/documentSymbol', { textDocument: { uri } }, signal),
            ),
          )
        case 'workspaceSymbol':
          return ok(
            renderWorkspaceSymbols(
              await connection.request('workspace/symbol', { query: request.query ?? '' }, signal),
              root,
            ),
          )
        case 'diagnostics': {
          const known = connection.diagnostics(filePath)
          const fresh = await connection.diagnosticsAfter(
            filePath,
            0,
            Math.max(this.#options.settings.diagnostics_wait_ms, 1_000),
            signal,
          )
          return ok(renderDiagnostics(fresh ?? known ?? [], display))
        }
        case 'renamePreview':
          if (!caps.renameProvider) return unsupported('rename')
          return ok(
            await renderRenameEdits(
              await connection.request(
                'textDocument/rename',
                { ...(await position()), newName: request.newName },
                signal,
              ),
              request.newName ?? '',
              root,
              readLine,
            ),
          )
        case 'incomingCalls':
        case 'outgoingCalls': {
          if (!caps.callHierarchyProvider) return unsupported('call hierarchy')
          const items = await connection.request<unknown[] | null>(
            'textDocument/prepareCallHierarchy',
            await position(),
            signal,
          )
          const item = items?.[0]
          if (item === undefined) return ok('No callable symbol at this position.')
          const direction = request.operation === 'incomingCalls' ? 'incoming' : 'outgoing'
          return ok(
            renderCalls(
              await connection.request(`callHierarchy/${direction}Calls`, { item }, signal),
              direction,
              root,
            ),
          )
        }
        default:
          return fail('invalid_input', `Unknown operation '${request.operation}'.`)
      }
    } catch (error) {
      if (error instanceof PositionError) return fail('invalid_input', error.message)
      throw error
    }
  }

  async diagnosticsAfterWrite(path: string, signal: AbortSignal): Promise<string | undefined> {
    const wait = this.#options.settings.diagnostics_wait_ms
    if (wait === 0 || !this.covers(path)) return undefined
    const got = await Promise.race([this.#connectionFor(path), delay(START_WAIT_MS).then(() => undefined)])
    if (got === undefined || !got.ok) return undefined
    const before = await got.connection.sync(path).catch(() => undefined)
    if (before === undefined) return undefined
    const diagnostics = await got.connection.diagnosticsAfter(path, before, wait, signal)
    const errors = (diagnostics ?? []).filter((diagnostic: Diagnostic) => (diagnostic.severity ?? 1) === 1)
    if (errors.length === 0) return undefined
    const display = displayUri(pathToFileURL(path).href, this.#options.root)
    return `${got.connection.spec.name} reports ${errors.length} error${errors.length === 1 ? '' : 's'} in ${display}:\n${renderDiagnostics(errors.slice(0, 20), display)}${errors.length > 20 ? `\n… and ${errors.length - 20} more` : ''}`
  }

  /** Shuts every server down (the session is closing). */
  async close(): Promise<void> {
    this.#closed = true
    const stops = [...this.#entries.values()].map(async (entry) => {
      const connection = entry.connection ?? (await entry.starting?.catch(() => undefined))
      await connection?.stop()
    })
    await Promise.all(stops)
  }

  /** The running (or started now) server for a file, or why there is none. */
  async #connectionFor(
    path: string,
  ): Promise<{ ok: true; connection: ServerConnection } | { ok: false; code: string; message: string }> {
    const extension = extname(path).slice(1).toLowerCase()
    const candidates = this.#specs.filter((spec) => spec.extensions.includes(extension))
    if (candidates.length === 0)
      return {
        ok: false,
        code: 'not_covered',
        message: `No language server is known for .${extension} files.`,
      }
    const spec = candidates.find((candidate) => serverCommandPath(candidate, this.#options) !== undefined)
    if (spec === undefined) {
      const message = `No language server for .${extension} files is installed: install ${candidates[0]?.install}${
        candidates.length > 1
          ? ` (or ${candidates
              .slice(1)
              .map((candidate) => candidate.command)
              .join(', ')})`
          : ''
      }, or configure one in [lsp.servers].`
      if (!this.#missingNoticed.has(extension)) {
        this.#missingNoticed.add(extension)
        this.#options.notice('info', message)
      }
      return { ok: false, code: 'not_installed', message }
    }
    if (this.#closed) return { ok: false, code: 'closed', message: 'The session is closing.' }
    if (!this.#options.trusted())
      return {
        ok: false,
        code: 'untrusted',
        message:
          'Language servers start only in a trusted workspace (a server runs code the project can influence). The user can trust it with `z-engine trust`; use Grep and Read meanwhile.',
      }
    let entry = this.#entries.get(spec.name)
    if (entry === undefined) {
      entry = { spec, commandPath: serverCommandPath(spec, this.#options) ?? spec.command, crashes: 0 }
      this.#entries.set(spec.name, entry)
    }
    if (entry.failed !== undefined)
      return {
        ok: false,
        code: 'server_failed',
        message: `The ${spec.name} language server crashed twice (${entry.failed}); it is off for this session. Use Grep and Read instead.`,
      }
    if (entry.connection?.alive) return { ok: true, connection: entry.connection }
    entry.starting ??= this.#start(entry)
    try {
      return { ok: true, connection: await entry.starting }
    } catch (error) {
      return {
        ok: false,
        code: 'server_failed',
        message: error instanceof Error ? error.message : String(error),
      }
    }
  }

  async #start(entry: Entry): Promise<ServerConnection> {
    // The JSON-RPC and protocol libraries (~400 modules) load with the first server, not with the engine.
    const { ServerConnection } = await import('./server-connection.js')
    const connection = new ServerConnection({
      spec: entry.spec,
      commandPath: entry.commandPath,
      root: this.#options.root,
      env: this.#options.env,
      scope: this.#options.scope,
      ...(this.#options.confine ? { confine: this.#options.confine } : {}),
      onCrash: (reason) => this.#crashed(entry, connection, reason),
    })
    try {
      await connection.start()
      entry.connection = connection
      return connection
    } catch (error) {
      await connection.stop()
      this.#crashed(entry, connection, error instanceof Error ? error.message : String(error))
      throw error
    } finally {
      entry.starting = undefined
    }
  }

  #crashed(entry: Entry, connection: ServerConnection, reason: string): void {
    if (this.#closed) return
    if (entry.connection === connection) entry.connection = undefined
    entry.crashes += 1
    if (entry.crashes >= 2) {
      if (entry.failed !== undefined) return
      entry.failed = reason
      this.#options.notice(
        'error',
        `The ${entry.spec.name} language server crashed again (${reason}); it stays off for this session.`,
      )
      return
    }
    this.#options.notice(
      'warning',
      `The ${entry.spec.name} language server stopped (${reason}); it restarts on its next use.`,
    )
  }
}

class PositionError extends Error {}

/**
 * The 0-based position of a request: its 1-based line and column, or where `symbol` first appears
 * as a whole word (on `line` when given, else anywhere in the file).
 */
async function resolvePosition(
  path: string,
  request: Request,
): Promise<{ ok: true; position: { line: number; character: number } } | { ok: false; message: string }> {
  if (request.line !== undefined && request.character !== undefined)
    return { ok: true, position: { line: request.line - 1, character: request.character - 1 } }
  const symbol = request.symbol
  if (symbol === undefined) return { ok: false, message: 'Give line and character, or symbol.' }
  const lines = (await readFile(path, 'utf8')).split('\n')
  const word = new RegExp(`(?<![\\w$])${symbol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`)
  const range = request.line !== undefined ? [request.line - 1] : lines.map((_, index) => index)
  for (const index of range) {
    const match = word.exec(lines[index] ?? '')
    if (match) return { ok: true, position: { line: index, character: match.index } }
  }
  return {
    ok: false,
    message: `'${symbol}' does not appear in ${path}${request.line !== undefined ? ` on line ${request.line}` : ''}; give line and character instead.`,
  }
}

/** Reads lines of files, each file once per query. */
function lineReader(): LineReader {
  const files = new Map<string, Promise<string[] | undefined>>()
  return async (path, line) => {
    let lines = files.get(path)
    if (lines === undefined) {
      lines = readFile(path, 'utf8').then(
        (text) => text.split('\n'),
        () => undefined,
      )
      files.set(path, lines)
    }
    return (await lines)?.[line]
  }
}

function ok(text: string): ToolResult {
  return { ok: true, output: { content: [{ type: 'text', text }] } }
}

function fail(code: string, message: string): ToolResult {
  return { ok: false, error: { code, message } }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}
