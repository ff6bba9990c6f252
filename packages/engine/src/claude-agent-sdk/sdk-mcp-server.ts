import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client'
import { type ZodRawShape, type ZodType, z } from 'zod'

/** What an SDK MCP tool's handler returns: the MCP `CallToolResult` shape. */
export interface CallToolResult {
  content: Array<
    | { type: 'text'; text: string }
    | { type: 'image'; data: string; mimeType: string }
    | { type: string; [key: string]: unknown }
  >
  isError?: boolean
  structuredContent?: Record<string, unknown>
}

/** MCP tool annotations (`readOnlyHint` lets the engine run the tool without asking). */
export interface ToolAnnotations {
  title?: string
  readOnlyHint?: boolean
  destructiveHint?: boolean
  idempotentHint?: boolean
  openWorldHint?: boolean
}

/** A tool of an in-process SDK MCP server, as `tool()` makes it. */
export interface SdkMcpToolDefinition<Shape extends ZodRawShape = ZodRawShape> {
  name: string
  description: string
  inputSchema: Shape
  annotations?: ToolAnnotations
  handler: (args: z.infer<z.ZodObject<Shape>>, extra: { signal: AbortSignal }) => Promise<CallToolResult>
}

/** The server object `createSdkMcpServer` returns, given to `query` under `options.mcpServers`. */
export interface McpSdkServerConfigWithInstance {
  type: 'sdk'
  name: string
  instance: SdkMcpServer
}

/** An MCP tool defined in code, with a Zod shape for its input (Claude Agent SDK's `tool()`). */
export function tool<Shape extends ZodRawShape>(
  name: string,
  description: string,
  inputSchema: Shape,
  handler: SdkMcpToolDefinition<Shape>['handler'],
  extras?: { annotations?: ToolAnnotations },
): SdkMcpToolDefinition<Shape> {
  return {
    name,
    description,
    inputSchema,
    handler,
    ...(extras?.annotations !== undefined ? { annotations: extras.annotations } : {}),
  }
}

/** An in-process MCP server from `tool()` definitions (Claude Agent SDK's `createSdkMcpServer`). */
export function createSdkMcpServer(options: {
  name: string
  version?: string
  // biome-ignore lint/suspicious/noExplicitAny: each tool keeps its own shape, as in the Claude Agent SDK.
  tools?: Array<SdkMcpToolDefinition<any>>
}): McpSdkServerConfigWithInstance {
  return {
    type: 'sdk',
    name: options.name,
    instance: new SdkMcpServer(options.name, options.version ?? '1.0.0', options.tools ?? []),
  }
}

const PROTOCOL_VERSIONS = ['2025-06-18', '2025-03-26', '2024-11-05']

type Request = { jsonrpc: '2.0'; id: string | number; method: string; params?: Record<string, unknown> }

/**
 * A minimal MCP server speaking JSON-RPC over one transport: initialize, ping, tools/list and
 * tools/call (with cancellation). The engine connects to it with its ordinary MCP client, so its tools
 * are `mcp__<server>__<tool>` and pass the same permission gate as any MCP tool.
 */
export class SdkMcpServer {
  readonly #tools: Map<string, { definition: SdkMcpToolDefinition; schema: ZodType; json: unknown }>
  readonly #running = new Map<string | number, AbortController>()
  #transport: Transport | undefined

  constructor(
    readonly name: string,
    readonly version: string,
    tools: ReadonlyArray<SdkMcpToolDefinition>,
  ) {
    this.#tools = new Map(
      tools.map((definition) => {
        const schema = z.object(definition.inputSchema)
        return [definition.name, { definition, schema, json: z.toJSONSchema(schema, { io: 'input' }) }]
      }),
    )
  }

  /** Serves one connection (the same call shape as the MCP SDK's `McpServer.connect`). */
  async connect(transport: Transport): Promise<void> {
    this.#transport = transport
    transport.onmessage = (message) => void this.#handle(message)
    transport.onclose = () => {
      for (const controller of this.#running.values()) controller.abort()
      this.#running.clear()
    }
    await transport.start()
  }

  async close(): Promise<void> {
    await this.#transport?.close()
  }

  async #handle(message: JSONRPCMessage): Promise<void> {
    const request = message as Partial<Request>
    if (typeof request.method !== 'string') return
    if (request.id === undefined) {
      if (request.method === 'notifications/cancelled') {
        const id = (request.params as { requestId?: string | number } | undefined)?.requestId
        if (id !== undefined) this.#running.get(id)?.abort()
      }
      return
    }
    const id = request.id
    try {
      const result = await this.#answer(id, request.method, request.params ?? {})
      await this.#transport?.send({ jsonrpc: '2.0', id, result } as JSONRPCMessage)
    } catch (error) {
      const failure = error instanceof RpcError ? error : new RpcError(-32603, (error as Error).message)
      await this.#transport
        ?.send({
          jsonrpc: '2.0',
          id,
          error: { code: failure.code, message: failure.message },
        } as JSONRPCMessage)
        .catch(() => {})
    }
  }

  async #answer(id: string | number, method: string, params: Record<string, unknown>): Promise<unknown> {
    switch (method) {
      case 'initialize': {
        const asked = String(params.protocolVersion ?? '')
        return {
          protocolVersion: PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0],
          capabilities: { tools: {} },
          serverInfo: { name: this.name, version: this.version },
        }
      }
      case 'ping':
        return {}
      case 'tools/list':
        return {
          tools: [...this.#tools.values()].map(({ definition, json }) => ({
            name: definition.name,
            description: definition.description,
            inputSchema: json,
            ...(definition.annotations !== undefined ? { annotations: definition.annotations } : {}),
          })),
        }
      case 'tools/call':
        return this.#call(id, params)
      default:
        throw new RpcError(-32601, `Method not found: ${method}`)
    }
  }

  async #call(id: string | number, params: Record<string, unknown>): Promise<CallToolResult> {
    const name = String(params.name ?? '')
    const entry = this.#tools.get(name)
    if (entry === undefined) throw new RpcError(-32602, `Unknown tool: ${name}`)
    const parsed = entry.schema.safeParse(params.arguments ?? {})
    if (!parsed.success) {
      return {
        content: [{ type: 'text', text: `Invalid input for ${name}: ${parsed.error.message}` }],
        isError: true,
      }
    }
    const controller = new AbortController()
    this.#running.set(id, controller)
    try {
      return await entry.definition.handler(parsed.data as never, { signal: controller.signal })
    } catch (error) {
      return { content: [{ type: 'text', text: (error as Error).message }], isError: true }
    } finally {
      this.#running.delete(id)
    }
  }
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}
