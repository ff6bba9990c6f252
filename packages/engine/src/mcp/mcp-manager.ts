import type { Transport } from '@modelcontextprotocol/client'
import type { ArgvConfiner } from '@z-engine/host'
import { reminderText } from '@z-engine/prompts'
import { DEFAULT_TOOL_LIMITS, type McpPort, type Tool, type ToolCtx, type ToolResult } from '@z-engine/tools'
import type { McpPromptCommand } from '../workspace/commands/catalog.js'
import { toolInputSchema } from './input-schema.js'
import { createLoadMcpToolsTool } from './load-mcp-tools.js'
import { createMcpTool, mcpToolName } from './mcp-tool.js'
import { formatResourceContents, formatResourceList } from './resources.js'
import { type ConnectionEvents, McpConnection, type McpServerInfo } from './server-connection.js'
import type { McpServerSpec } from './server-spec.js'
import { mapCallToolResult } from './tool-result.js'

/** Above this many MCP tools, schemas are deferred behind LoadMcpTools (spec 000). */
export const MCP_DEFER_THRESHOLD = 40

/** An embedder's in-process server: returns the client end of an SDK in-memory transport pair. */
export interface InProcessMcpServer {
  name: string
  connect: () => Promise<Transport>
}

/** What the manager reports to its session. */
export interface McpManagerHooks {
  notice(level: 'info' | 'warning', message: string): void
  /** Queues a reminder for the model's next user message. */
  remind(text: string): void
}

/** What a session's MCP manager is built from. */
export interface McpManagerOptions {
  specs: readonly McpServerSpec[]
  inProcess?: readonly InProcessMcpServer[]
  /** Environment stdio servers start with (the policy-filtered child environment). */
  baseEnv: Readonly<Record<string, string>>
  /** Puts stdio servers into the session's sandbox (issue 34); absent: they start unconfined. */
  confine?: ArgvConfiner
  hooks: McpManagerHooks
}

/** One resource a ready server lists, as `@server:uri` completion offers it. */
export interface McpResourceEntry {
  server: string
  uri: string
  name: string
  description?: string
}

/** What `reconcile` changed, by server name. */
export interface McpReconcileResult {
  added: string[]
  removed: string[]
  restarted: string[]
}

interface Entry {
  tool: Tool
  server: string
  summary: string
}

/**
 * A session's MCP servers (the McpPort): starts every server in the background, offers their tools
 * as `mcp__<server>__<tool>` (deferred behind LoadMcpTools above {@link MCP_DEFER_THRESHOLD}), answers
 * resource reads and prompt commands, and kills every server when the session closes. The offered
 * list only grows by appending (tools once offered stay in place while they exist), so the request
 * prefix stays stable; it changes between rounds, never during a batch (the run host reads it once
 * per request).
 */
export class McpManager implements McpPort {
  readonly #connections = new Map<string, McpConnection>()
  /** Offered tool names in the order they were first offered. */
  readonly #offered: string[] = []
  /** Tools LoadMcpTools asked for (names), offered once they exist. */
  readonly #loaded = new Set<string>()
  #entries = new Map<string, Entry>()
  #view: readonly Tool[] = []
  #dirty = true
  #lastDeferred = ''
  #closed = false
  readonly #loadTool: Tool
  readonly #events: ConnectionEvents = { changed: (connection, why) => this.#changed(connection, why) }

  constructor(private readonly options: McpManagerOptions) {
    const events = this.#events
    for (const spec of options.specs)
      this.#connections.set(
        spec.name,
        new McpConnection(spec, { baseEnv: options.baseEnv, ...confineOf(options), events }),
      )
    for (const server of options.inProcess ?? []) {
      this.#connections.set(
        server.name,
        new McpConnection(
          { name: server.name, transport: 'in-process', timeoutMs: 30_000 },
          { baseEnv: options.baseEnv, inProcess: server.connect, events },
        ),
      )
    }
    this.#loadTool = createLoadMcpToolsTool((names) => this.load(names))
  }

  /** Whether any server is configured. */
  get configured(): boolean {
    return this.#connections.size > 0
  }

  /** Starts every server without waiting (the first request never waits for MCP). */
  start(): void {
    for (const connection of this.#connections.values()) void connection.start()
  }

  /** Resolves once every server is ready or failed (tests, benchmarks, `mcp list`). */
  async settled(): Promise<void> {
    await Promise.all([...this.#connections.values()].map((connection) => connection.start()))
  }

  /** Resolves once this server is ready or failed (a prompt mentioning its resource waits for it). */
  async started(server: string): Promise<void> {
    await this.#connections.get(server)?.start()
  }

  /** Every server's status, transport, tool count, last error and stderr tail. */
  servers(): McpServerInfo[] {
    return [...this.#connections.values()].map((connection) => connection.info())
  }

  /** Restarts one server (`/mcp reconnect <name>`). */
  async reconnect(name: string): Promise<McpServerInfo | undefined> {
    const connection = this.#connections.get(name)
    if (!connection) return undefined
    this.#dirty = true
    await connection.restart()
    return connection.info()
  }

  /**
   * The MCP tools to offer on the next request: every tool while there are at most 40, else
   * LoadMcpTools plus the tools offered before deferral began and the ones it loaded.
   */
  tools(): readonly Tool[] {
    if (!this.#dirty) return this.#view
    this.#dirty = false
    const entries = new Map<string, Entry>()
    for (const connection of this.#connections.values()) {
      if (connection.status !== 'ready') continue
      for (const sdkTool of connection.tools) {
        const schema = toolInputSchema(sdkTool.inputSchema)
        const name = mcpToolName(connection.name, sdkTool.name)
        if (!schema.ok) {
          if (!this.#entries.has(name) && !entries.has(name))
            this.options.hooks.notice('warning', `MCP tool ${name} is left out: ${schema.message}.`)
          continue
        }
        if (entries.has(name)) continue
        const tool = createMcpTool(
          connection.name,
          sdkTool,
          schema.schema,
          (server, toolName, input, ctx, signal) => this.#call(server, toolName, input, ctx, signal),
        )
        const summary = (sdkTool.description ?? sdkTool.title ?? '').split('\n')[0]!.trim().slice(0, 120)
        entries.set(name, { tool, server: connection.name, summary })
      }
    }
    this.#entries = entries
    const deferring = entries.size > MCP_DEFER_THRESHOLD
    // Tools keep their place once offered; new ones are appended (or deferred).
    for (let index = this.#offered.length - 1; index >= 0; index--)
      if (!entries.has(this.#offered[index]!)) this.#offered.splice(index, 1)
    for (const name of entries.keys()) {
      if (this.#offered.includes(name)) continue
      if (!deferring || this.#loaded.has(name)) this.#offered.push(name)
    }
    const deferred = [...entries.keys()].filter((name) => !this.#offered.includes(name))
    const listing = deferred.map((name) => `- ${name}: ${entries.get(name)!.summary}`).join('\n')
    if (deferred.length > 0 && listing !== this.#lastDeferred)
      this.options.hooks.remind(reminderText('mcpDeferredTools', { tools: listing }))
    this.#lastDeferred = listing
    const offered = this.#offered.map((name) => entries.get(name)!.tool)
    this.#view = deferring || this.#loaded.size > 0 ? [this.#loadTool, ...offered] : offered
    return this.#view
  }

  /** The names of deferred tools (known, not yet offered). */
  deferred(): string[] {
    this.tools()
    return [...this.#entries.keys()].filter((name) => !this.#offered.includes(name))
  }

  /** LoadMcpTools: marks tools (exact names or `mcp__server__*`) to be offered from the next request. */
  load(names: readonly string[]): { loaded: string[]; unknown: string[] } {
    this.tools()
    const loaded: string[] = []
    const unknown: string[] = []
    for (const pattern of names) {
      const matches = pattern.endsWith('*')
        ? [...this.#entries.keys()].filter((name) => name.startsWith(pattern.slice(0, -1)))
        : this.#entries.has(pattern)
          ? [pattern]
          : []
      if (matches.length === 0) unknown.push(pattern)
      for (const name of matches) {
        if (this.#loaded.has(name) || this.#offered.includes(name)) continue
        this.#loaded.add(name)
        loaded.push(name)
      }
    }
    if (loaded.length > 0) this.#dirty = true
    return { loaded, unknown }
  }

  /** Prompts of ready servers, as `/mcp__<server>__<prompt>` commands. */
  promptCommands(): McpPromptCommand[] {
    return [...this.#connections.values()].flatMap((connection) =>
      connection.status !== 'ready'
        ? []
        : connection.prompts.map((prompt) => ({
            server: connection.name,
            prompt: prompt.name,
            description: prompt.description ?? prompt.title ?? `MCP prompt of ${connection.name}`,
            arguments: (prompt.arguments ?? []).map((argument) => ({
              name: argument.name,
              ...(argument.description !== undefined ? { description: argument.description } : {}),
              required: argument.required === true,
            })),
          })),
    )
  }

  /** Gets a prompt's messages as text for a turn. */
  async getPrompt(server: string, prompt: string, args: Record<string, string>): Promise<string> {
    const result = await this.#connection(server).client().getPrompt({ name: prompt, arguments: args })
    return result.messages
      .map((message) => {
        const content = message.content
        const text =
          content.type === 'text'
            ? content.text
            : content.type === 'resource' && 'text' in content.resource
              ? `Resource <${content.resource.uri}>:\n${String(content.resource.text)}`
              : `[${content.type} content]`
        return message.role === 'assistant' ? `(assistant) ${text}` : text
      })
      .join('\n\n')
  }

  /** Resources of ready servers, one entry each, for `@server:uri` completion; a server that fails to list is skipped. */
  async resourceEntries(signal: AbortSignal): Promise<McpResourceEntry[]> {
    const ready = [...this.#connections.values()].filter(
      (connection) => connection.status === 'ready' && connection.client().getServerCapabilities()?.resources,
    )
    const listed = await Promise.all(
      ready.map((connection) =>
        connection
          .client()
          .listResources({}, { signal })
          .then(
            (result) =>
              result.resources.map((resource) => ({
                server: connection.name,
                uri: resource.uri,
                name: resource.title ?? resource.name,
                ...(resource.description !== undefined
                  ? { description: resource.description.split('\n')[0] ?? '' }
                  : {}),
              })),
            () => [],
          ),
      ),
    )
    return listed.flat()
  }

  async listResources(server: string | undefined, signal: AbortSignal): Promise<ToolResult> {
    const targets =
      server === undefined
        ? [...this.#connections.values()].filter((connection) => connection.status === 'ready')
        : [this.#connection(server)]
    const sections: string[] = []
    for (const connection of targets) {
      const client = connection.client()
      if (!client.getServerCapabilities()?.resources) {
        if (server !== undefined) sections.push(`${connection.name}: this server offers no resources.`)
        continue
      }
      const [resources, templates] = await Promise.all([
        client.listResources({}, { signal }),
        client.listResourceTemplates({}, { signal }).catch(() => ({ resourceTemplates: [] })),
      ])
      sections.push(formatResourceList(connection.name, resources.resources, templates.resourceTemplates))
    }
    const text = sections.length === 0 ? 'No MCP server offers resources.' : sections.join('\n\n')
    return { ok: true, output: { content: [{ type: 'text', text }] } }
  }

  async readResource(server: string, uri: string, signal: AbortSignal): Promise<ToolResult> {
    const result = await this.#connection(server).client().readResource({ uri }, { signal })
    return { ok: true, output: { content: formatResourceContents(result.contents) } }
  }

  async callTool(
    server: string,
    tool: string,
    input: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<ToolResult> {
    const ctx = {
      vision: false,
      limits: DEFAULT_TOOL_LIMITS,
      spill: async () => Promise.reject(new Error('no spill')),
    }
    return this.#call(server, tool, input, ctx as unknown as ToolCtx, signal)
  }

  /**
   * Brings the configured servers in line with `specs` after a settings reload or a workspace trust:
   * new ones start in the background, removed ones are killed (their tools leave the offered list),
   * changed ones restart with the new spec. The embedder's in-process servers are kept as they are.
   */
  async reconcile(specs: readonly McpServerSpec[]): Promise<McpReconcileResult> {
    const result: McpReconcileResult = { added: [], removed: [], restarted: [] }
    if (this.#closed) return result
    const wanted = new Map(specs.map((spec) => [spec.name, spec]))
    const stopping: Promise<void>[] = []
    for (const [name, connection] of this.#connections) {
      if (connection.spec.transport === 'in-process') continue
      const spec = wanted.get(name)
      if (spec !== undefined && JSON.stringify(spec) === JSON.stringify(connection.spec)) continue
      this.#connections.delete(name)
      stopping.push(connection.close())
      if (spec === undefined) result.removed.push(name)
      else result.restarted.push(name)
    }
    await Promise.all(stopping)
    for (const spec of specs) {
      if (this.#connections.has(spec.name)) continue
      const connection = new McpConnection(spec, {
        baseEnv: this.options.baseEnv,
        ...confineOf(this.options),
        events: this.#events,
      })
      this.#connections.set(spec.name, connection)
      if (!result.restarted.includes(spec.name)) result.added.push(spec.name)
      void connection.start()
    }
    this.#dirty = true
    return result
  }

  /** Kills every server (process trees included); the manager offers nothing afterwards. */
  async close(): Promise<void> {
    this.#closed = true
    await Promise.all([...this.#connections.values()].map((connection) => connection.close()))
    this.#dirty = true
  }

  async #call(
    server: string,
    tool: string,
    input: Record<string, unknown>,
    ctx: ToolCtx,
    signal: AbortSignal,
  ): Promise<ToolResult> {
    const connection = this.#connections.get(server)
    if (!connection)
      return {
        ok: false,
        error: { code: 'mcp_unknown_server', message: `There is no MCP server named ${server}.` },
      }
    try {
      const result = await connection.callTool(tool, input, signal, (message) => ctx.progress({ message }))
      return await mapCallToolResult(server, result, ctx, `mcp-${server}`)
    } catch (error) {
      if (signal.aborted)
        return { ok: false, error: { code: 'cancelled', message: 'The MCP call was cancelled.' } }
      const message = (error as Error).message
      return {
        ok: false,
        error: {
          code: 'mcp_call_failed',
          message: `MCP tool ${tool} of ${server} failed: ${message}${connection.status === 'failed' ? ` (the server stopped; its tools are gone until /mcp reconnect ${server})` : ''}`,
        },
      }
    }
  }

  #connection(server: string): McpConnection {
    const connection = this.#connections.get(server)
    if (!connection) {
      const names = [...this.#connections.keys()]
      throw new Error(
        `there is no MCP server named ${server}${names.length > 0 ? ` (servers: ${names.join(', ')})` : ''}`,
      )
    }
    return connection
  }

  #changed(connection: McpConnection, why: Parameters<ConnectionEvents['changed']>[1]): void {
    this.#dirty = true
    if (this.#closed) return
    // Work out the offered list now, so a deferral reminder joins the next user message.
    this.tools()
    if (why === 'ready') {
      const info = connection.info()
      this.options.hooks.notice(
        'info',
        `MCP server ${connection.name} is ready: ${info.toolCount} tools, ${info.promptCount} prompts.`,
      )
    } else if (why === 'failed' || why === 'lost') {
      this.options.hooks.notice(
        'warning',
        `MCP server ${connection.name} ${why === 'lost' ? 'stopped' : 'is unavailable'}: ${connection.lastError ?? 'unknown error'}. Its tools are not offered; run /mcp reconnect ${connection.name} to retry.`,
      )
    }
  }
}

function confineOf(options: McpManagerOptions): { confine?: ArgvConfiner } {
  return options.confine ? { confine: options.confine } : {}
}
