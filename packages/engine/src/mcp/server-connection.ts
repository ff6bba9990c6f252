import type { CallToolResult, Client, Prompt, Tool as SdkTool, Transport } from '@modelcontextprotocol/client'
import type { ArgvConfiner } from '@z-engine/host'
import { loadAjv } from '../util/load-ajv.js'
import type { McpServerSpec } from './server-spec.js'
import type { SupervisedStdioTransport } from './stdio-transport.js'

type SdkRuntime = typeof import('./sdk-runtime.js')
let sdkRuntime: Promise<SdkRuntime> | undefined
/** The SDK, imported when the first server starts (never for sessions without MCP servers). */
const loadSdk = (): Promise<SdkRuntime> => {
  sdkRuntime ??= import('./sdk-runtime.js')
  return sdkRuntime
}

/** Where a server is in its life. */
export type McpServerStatus = 'starting' | 'ready' | 'failed' | 'closed'

/** A server as `/mcp`, `mcp list` and embedders see it. */
export interface McpServerInfo {
  name: string
  transport: McpServerSpec['transport'] | 'in-process'
  status: McpServerStatus
  toolCount: number
  promptCount: number
  /** Why it failed or last misbehaved. */
  lastError?: string
  /** The tail of a stdio server's stderr (a ring of {@link STDERR_RING_CHARS}). */
  stderr: string
  /** A stdio server's process id (the last one started; it is killed when the server fails or closes). */
  pid?: number
}

/** Characters of a stdio server's stderr kept for `/mcp` and `mcp list`. */
export const STDERR_RING_CHARS = 8_192

/** A tool call may run this long without progress before it fails (progress resets the clock). */
export const MCP_CALL_TIMEOUT_MS = 10 * 60_000

/** How a connection reports back to its manager. */
export interface ConnectionEvents {
  /** Status, tools or prompts changed: `failed` to start, or `lost` after it was ready. */
  changed(connection: McpConnection, why: 'ready' | 'failed' | 'lost' | 'tools' | 'prompts'): void
}

/** What a connection needs besides its spec. */
export interface ConnectionOptions {
  /** Environment for stdio servers before the server's own `env` (already policy-filtered). */
  baseEnv: Readonly<Record<string, string>>
  /** Puts a stdio server into the session's sandbox (issue 34). */
  confine?: ArgvConfiner
  /** An embedder's in-process server: called to get the client side of an in-memory pair. */
  inProcess?: () => Promise<Transport>
  events: ConnectionEvents
}

/**
 * One MCP server over the official SDK client: starts the transport (stdio child, streamable HTTP,
 * legacy SSE, or an in-memory pair) within the start timeout, lists tools and prompts, follows
 * `list_changed`, and reports a crash as `failed` so its tools disappear. `close` kills a stdio
 * server's whole process tree.
 */
export class McpConnection {
  status: McpServerStatus = 'starting'
  tools: SdkTool[] = []
  prompts: Prompt[] = []
  lastError: string | undefined
  #stderr = ''
  #client: Client | undefined
  #transport: Transport | undefined
  /** Set once the SDK is loaded (before any client or transport exists). */
  #sdk: SdkRuntime | undefined
  #pid: number | undefined
  #started: Promise<void> | undefined

  constructor(
    readonly spec: McpServerSpec | { name: string; transport: 'in-process'; timeoutMs: number },
    private readonly options: ConnectionOptions,
  ) {}

  get name(): string {
    return this.spec.name
  }

  /** Starts (once); resolves when ready or failed, never rejects. */
  start(): Promise<void> {
    this.#started ??= this.#start()
    return this.#started
  }

  /** Closes and starts again (`/mcp reconnect <name>`). */
  async restart(): Promise<void> {
    await this.close()
    this.status = 'starting'
    this.lastError = undefined
    this.#started = undefined
    return this.start()
  }

  info(): McpServerInfo {
    return {
      name: this.name,
      transport: this.spec.transport,
      status: this.status,
      toolCount: this.tools.length,
      promptCount: this.prompts.length,
      ...(this.lastError !== undefined ? { lastError: this.lastError } : {}),
      stderr: this.#stderr,
      ...(this.#pid !== undefined ? { pid: this.#pid } : {}),
    }
  }

  /** The connected client, or an error saying why there is none. */
  client(): Client {
    if (this.status === 'ready' && this.#client) return this.#client
    const why =
      this.status === 'starting'
        ? 'is still starting'
        : `is ${this.status}${this.lastError ? ` (${this.lastError})` : ''}`
    throw new Error(`MCP server ${this.name} ${why}; try again later or run /mcp reconnect ${this.name}`)
  }

  /** Calls a tool; cancelling `signal` sends `notifications/cancelled`. */
  async callTool(
    tool: string,
    input: Record<string, unknown>,
    signal: AbortSignal,
    onProgress: (message: string) => void,
  ): Promise<CallToolResult> {
    const result = await this.client().callTool(
      { name: tool, arguments: input },
      {
        signal,
        timeout: MCP_CALL_TIMEOUT_MS,
        resetTimeoutOnProgress: true,
        onprogress: (progress) => {
          const total = progress.total !== undefined ? `/${progress.total}` : ''
          onProgress(progress.message ?? `${progress.progress}${total}`)
        },
      },
    )
    return result as CallToolResult
  }

  /** Closes the client and kills a stdio server's process tree. */
  async close(): Promise<void> {
    const client = this.#client
    this.#client = undefined
    const transport = this.#transport
    this.status = 'closed'
    // The server's whole process group goes, whatever it started (an `npx` wrapper's child).
    await this.#stdio(transport)?.close(1_000)
    await client?.close().catch(() => {})
  }

  async #start(): Promise<void> {
    let sdk: SdkRuntime
    try {
      sdk = await loadSdk()
      // The manager checks each listed tool's schema synchronously when it builds the offered list.
      await loadAjv()
    } catch (error) {
      this.status = 'failed'
      this.lastError = `the MCP SDK could not be loaded: ${(error as Error).message}`
      this.options.events.changed(this, 'failed')
      return
    }
    this.#sdk = sdk
    // Closed while the SDK loaded: start nothing. (A method, so the status is not narrowed below.)
    if (this.#isClosed()) return
    const { Client } = sdk
    const client = new Client({ name: 'z-engine', version: '0.1.0' }, { capabilities: {} })
    const timeoutMs = this.spec.timeoutMs
    let timer: NodeJS.Timeout | undefined
    try {
      const transport = await this.#createTransport(sdk)
      this.#transport = transport
      this.#client = client
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`did not start within ${timeoutMs} ms (raise timeout_ms to wait longer)`)),
          timeoutMs,
        )
      })
      await Promise.race([
        (async () => {
          await client.connect(transport, { timeout: timeoutMs })
          this.#pid = this.#stdio(transport)?.pid
          await this.#refresh(client, 'both')
        })(),
        timeout,
      ])
      if (this.#client !== client) return
      client.onclose = () => this.#lost(client, 'the server closed the connection')
      client.onerror = (error) => {
        this.lastError = error.message
      }
      client.setNotificationHandler('notifications/tools/list_changed', async () => {
        await this.#refresh(client, 'tools').catch((error) => {
          this.lastError = `tools/list failed after list_changed: ${(error as Error).message}`
        })
        if (this.#client === client) this.options.events.changed(this, 'tools')
      })
      client.setNotificationHandler('notifications/prompts/list_changed', async () => {
        await this.#refresh(client, 'prompts').catch(() => {})
        if (this.#client === client) this.options.events.changed(this, 'prompts')
      })
      this.status = 'ready'
      this.options.events.changed(this, 'ready')
    } catch (error) {
      if (this.status === 'closed') return
      this.status = 'failed'
      this.lastError = this.#withStderr((error as Error).message)
      const transport = this.#transport
      this.#pid ??= this.#stdio(transport)?.pid
      this.#client = undefined
      await this.#stdio(transport)?.close(500)
      await client.close().catch(() => {})
      this.options.events.changed(this, 'failed')
    } finally {
      clearTimeout(timer)
    }
  }

  #lost(client: Client, why: string): void {
    if (this.#client !== client || this.status !== 'ready') return
    this.#client = undefined
    this.status = 'failed'
    this.lastError = this.#withStderr(why)
    this.tools = []
    this.prompts = []
    // A wrapper that died may leave the real server running in its group.
    void this.#stdio(this.#transport)?.close(500)
    this.options.events.changed(this, 'lost')
  }

  async #refresh(client: Client, what: 'tools' | 'prompts' | 'both'): Promise<void> {
    const capabilities = client.getServerCapabilities() ?? {}
    if (what !== 'prompts') {
      const tools: SdkTool[] = []
      if (capabilities.tools) {
        let cursor: string | undefined
        do {
          const page = await client.listTools(cursor !== undefined ? { cursor } : {})
          tools.push(...page.tools)
          cursor = page.nextCursor
        } while (cursor !== undefined)
      }
      this.tools = tools
    }
    if (what !== 'tools') {
      const prompts: Prompt[] = []
      if (capabilities.prompts) {
        let cursor: string | undefined
        do {
          const page = await client.listPrompts(cursor !== undefined ? { cursor } : {})
          prompts.push(...page.prompts)
          cursor = page.nextCursor
        } while (cursor !== undefined)
      }
      this.prompts = prompts
    }
  }

  async #createTransport(sdk: SdkRuntime): Promise<Transport> {
    const { SSEClientTransport, StreamableHTTPClientTransport, SupervisedStdioTransport } = sdk
    const spec = this.spec
    switch (spec.transport) {
      case 'in-process': {
        if (!this.options.inProcess) throw new Error('no in-process server was given')
        return this.options.inProcess()
      }
      case 'stdio': {
        const transport = new SupervisedStdioTransport({
          command: spec.command,
          args: spec.args,
          env: { ...this.options.baseEnv, ...spec.env },
          cwd: spec.cwd,
          ...(this.options.confine ? { confine: this.options.confine } : {}),
        })
        transport.stderr.on('data', (chunk: Buffer) => {
          this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-STDERR_RING_CHARS)
        })
        return transport
      }
      case 'http':
        return new StreamableHTTPClientTransport(new URL(spec.url), {
          requestInit: { headers: spec.headers },
        })
      case 'sse':
        return new SSEClientTransport(new URL(spec.url), {
          requestInit: { headers: spec.headers },
          eventSourceInit: {
            fetch: (url, init) =>
              fetch(url, {
                ...init,
                headers: { ...spec.headers, ...(init?.headers as Record<string, string> | undefined) },
              }),
          },
        })
      default: {
        const unreachable: never = spec
        throw new Error(`unknown transport ${JSON.stringify(unreachable)}`)
      }
    }
  }

  #isClosed(): boolean {
    return this.status === 'closed'
  }

  /** The transport, if it is a stdio server's (only those have a process to kill). */
  #stdio(transport: Transport | undefined): SupervisedStdioTransport | undefined {
    return this.#sdk && transport instanceof this.#sdk.SupervisedStdioTransport ? transport : undefined
  }

  /** A start error with the last stderr line, which usually says why (a missing module, a bad flag). */
  #withStderr(message: string): string {
    const last = this.#stderr.trim().split('\n').at(-1)
    return last !== undefined && last !== '' ? `${message} (stderr: ${last.slice(0, 300)})` : message
  }
}
