import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import { type ArgvConfiner, killProcessTree, type ProcessScope } from '@z-engine/host'
import { CancellationTokenSource, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node'
import {
  type ClientCapabilities,
  createProtocolConnection,
  type Diagnostic,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  type ServerCapabilities,
  ShutdownRequest,
} from 'vscode-languageserver-protocol/node'
import { confineOrAsIs, spawnConfined } from '../util/spawn-confined.js'
import { type LspServerSpec, languageIdOf } from './server-table.js'

/** Milliseconds a server may take to answer `initialize` (a cold tsserver or pyright is slow). */
const INITIALIZE_TIMEOUT_MS = 60_000
/**
 * Servers publish a file's diagnostics in steps (typescript-language-server: syntax first, then
 * semantics); after a fresh publish, this long a quiet spell means the set is complete.
 */
const SETTLE_MS = 500
/** Milliseconds `shutdown` may take before the process tree is killed anyway. */
const SHUTDOWN_TIMEOUT_MS = 2_000

/** One file's latest published diagnostics and how many publishes it has had. */
interface Published {
  diagnostics: Diagnostic[]
  count: number
}

/** What a connection needs from its manager. */
export interface ConnectionOptions {
  spec: LspServerSpec
  /** The absolute path of the command (found on PATH). */
  commandPath: string
  root: string
  env: Record<string, string>
  scope: ProcessScope
  /** Puts the server into the session's sandbox (issue 34); absent: it starts unconfined. */
  confine?: ArgvConfiner
  /** Called once when the process ends without `stop()` (a crash). */
  onCrash(reason: string): void
}

/**
 * One running language server over stdio, through vscode-jsonrpc's framing and the protocol's
 * typed messages: initialize, open/change/save documents (full sync), collect published
 * diagnostics, send requests, shut down. The process is a supervised group in the session's scope.
 */
export class ServerConnection {
  readonly spec: LspServerSpec
  capabilities: ServerCapabilities = {}
  readonly #options: ConnectionOptions
  #child: ChildProcessWithoutNullStreams | undefined
  #connection: ProtocolConnection | undefined
  #stopping = false
  readonly #versions = new Map<string, number>()
  readonly #published = new Map<string, Published>()
  readonly #waiters = new Set<() => void>()
  #stderr = ''
  #confined = false

  constructor(options: ConnectionOptions) {
    this.spec = options.spec
    this.#options = options
  }

  /** Starts the process and completes the initialize handshake. */
  async start(): Promise<void> {
    const { spec, root } = this.#options
    const argv = [this.#options.commandPath, ...spec.args]
    const confined = await confineOrAsIs(this.#options.confine, argv, root)
    this.#confined = confined.mode !== undefined
    const child = spawnConfined(confined, root, this.#options.env)
    this.#child = child
    if (child.pid !== undefined) this.#options.scope.add(child.pid)
    child.stderr.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-2_000)
    })
    const exited = new Promise<string>((resolve) => {
      child.once('error', (error) => resolve(error.message))
      child.once('exit', (code, signal) =>
        resolve(signal ? `killed by ${signal}` : `exited with code ${code}`),
      )
    })
    void exited.then((reason) => {
      this.#connection?.dispose()
      this.#connection = undefined
      for (const wake of this.#waiters) wake()
      if (!this.#stopping)
        this.#options.onCrash(`${reason}${this.#stderr ? `: ${this.#stderr.trim().split('\n').at(-1)}` : ''}`)
    })
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    )
    this.#connection = connection
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      const previous = this.#published.get(params.uri)
      this.#published.set(params.uri, { diagnostics: params.diagnostics, count: (previous?.count ?? 0) + 1 })
      for (const wake of this.#waiters) wake()
    })
    // Servers ask the client things (configuration, progress tokens, registrations): answer
    // neutrally so they carry on with their defaults.
    connection.onRequest('workspace/configuration', (params: { items?: unknown[] } | undefined) =>
      (params?.items ?? []).map(() => null),
    )
    for (const method of NEUTRAL_REQUESTS) connection.onRequest(method, () => null)
    connection.onRequest('workspace/workspaceFolders', () => [
      { uri: pathToFileURL(root).href, name: root.split('/').at(-1) ?? 'project' },
    ])
    connection.onError(() => {})
    connection.listen()
    const rootUri = pathToFileURL(root).href
    const initialized = connection.sendRequest(InitializeRequest.type, {
      // A confined server has its own pid namespace, where our pid names nothing (a server that
      // watches it would exit at once); it dies with us through the sandbox instead.
      processId: this.#confined ? null : process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: root.split('/').at(-1) ?? 'project' }],
      capabilities: CLIENT_CAPABILITIES,
      ...(spec.initializationOptions !== undefined
        ? { initializationOptions: spec.initializationOptions }
        : {}),
    })
    const result = await Promise.race([
      initialized,
      exited.then((reason) => {
        throw new Error(`${spec.command} ${reason}${this.#stderr ? `: ${this.#stderr.trim()}` : ''}`)
      }),
      delay(INITIALIZE_TIMEOUT_MS).then(() => {
        throw new Error(`${spec.command} did not answer initialize within ${INITIALIZE_TIMEOUT_MS / 1000}s`)
      }),
    ])
    this.capabilities = result.capabilities
    await connection.sendNotification(InitializedNotification.type, {})
  }

  /** Whether the process runs and talks. */
  get alive(): boolean {
    return this.#connection !== undefined
  }

  /** Sends a request; rejects when the server is gone. */
  async request<R>(method: string, params: unknown, signal: AbortSignal): Promise<R> {
    const connection = this.#connection
    if (connection === undefined) throw new Error(`${this.spec.name} is not running`)
    const source = new CancellationTokenSource()
    const cancel = () => source.cancel()
    signal.addEventListener('abort', cancel, { once: true })
    try {
      return (await connection.sendRequest(method, params, source.token)) as R
    } finally {
      signal.removeEventListener('abort', cancel)
      source.dispose()
    }
  }

  /**
   * Tells the server the file's current text: `didOpen` the first time, then `didChange` (full
   * text) and `didSave`. Returns the publish count before the change, for `diagnosticsAfter`.
   */
  async sync(path: string): Promise<number> {
    const connection = this.#connection
    if (connection === undefined) throw new Error(`${this.spec.name} is not running`)
    const uri = pathToFileURL(path).href
    const text = await readFile(path, 'utf8')
    const before = this.#published.get(uri)?.count ?? 0
    const version = this.#versions.get(uri)
    if (version === undefined) {
      this.#versions.set(uri, 1)
      await connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: languageIdOf(path), version: 1, text },
      })
    } else {
      this.#versions.set(uri, version + 1)
      await connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version: version + 1 },
        contentChanges: [{ text }],
      })
      await connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri }, text })
    }
    return before
  }

  /** Whether the file was opened with the server already. */
  isOpen(path: string): boolean {
    return this.#versions.has(pathToFileURL(path).href)
  }

  /**
   * The diagnostics published for `path` after `count` publishes, once they settle (no further
   * publish for a short spell), waiting up to `timeoutMs` for the first; undefined when none
   * arrived in time (or the server went away).
   */
  async diagnosticsAfter(
    path: string,
    count: number,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<Diagnostic[] | undefined> {
    const uri = pathToFileURL(path).href
    const deadline = Date.now() + timeoutMs
    let seen = count
    let settleUntil: number | undefined
    for (;;) {
      const published = this.#published.get(uri)
      if (published !== undefined && published.count > seen) {
        seen = published.count
        settleUntil = Date.now() + SETTLE_MS
      }
      const until = settleUntil ?? deadline
      const left = until - Date.now()
      if (left <= 0 || signal.aborted || !this.alive)
        return settleUntil === undefined ? undefined : published?.diagnostics
      await this.#nextPublish(left, signal)
    }
  }

  /** Resolves at the next publish, after `ms`, on abort, or when the server goes away. */
  #nextPublish(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer)
        this.#waiters.delete(wake)
        signal.removeEventListener('abort', wake)
        resolve()
      }
      const timer = setTimeout(wake, ms)
      this.#waiters.add(wake)
      signal.addEventListener('abort', wake, { once: true })
    })
  }

  /** The latest diagnostics published for `path`, if any. */
  diagnostics(path: string): Diagnostic[] | undefined {
    return this.#published.get(pathToFileURL(path).href)?.diagnostics
  }

  /** Shuts the server down politely, then kills its process tree. */
  async stop(): Promise<void> {
    this.#stopping = true
    const connection = this.#connection
    if (connection !== undefined) {
      await Promise.race([
        connection
          .sendRequest(ShutdownRequest.type)
          .then(() => connection.sendNotification(ExitNotification.type))
          .catch(() => undefined),
        delay(SHUTDOWN_TIMEOUT_MS),
      ])
      connection.dispose()
      this.#connection = undefined
    }
    const pid = this.#child?.pid
    if (pid !== undefined) await killProcessTree(pid).catch(() => undefined)
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}

/** Server-to-client requests answered with null (registrations, progress tokens, message boxes). */
const NEUTRAL_REQUESTS = [
  'client/registerCapability',
  'client/unregisterCapability',
  'window/workDoneProgress/create',
  'window/showMessageRequest',
  'workspace/diagnostic/refresh',
  'workspace/semanticTokens/refresh',
  'workspace/inlayHint/refresh',
  'workspace/codeLens/refresh',
]

/** What the engine's client understands (what the LSP tool asks for). */
const CLIENT_CAPABILITIES: ClientCapabilities = {
  general: { positionEncodings: ['utf-16'] },
  textDocument: {
    synchronization: { didSave: true, dynamicRegistration: false },
    publishDiagnostics: { relatedInformation: false, versionSupport: true },
    definition: { linkSupport: true },
    implementation: { linkSupport: true },
    references: {},
    hover: { contentFormat: ['markdown', 'plaintext'] },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    rename: { prepareSupport: false },
    callHierarchy: {},
  },
  workspace: { symbol: {}, workspaceFolders: true, configuration: true },
  window: { workDoneProgress: false },
}
