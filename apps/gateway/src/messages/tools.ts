/**
 * The tools of one Messages request: client tools (`custom`) become upstream functions and round-trip
 * to the client as `tool_use`; native `web_search_20250305` and `web_fetch_20250910` declarations and
 * `mcp_servers` are gateway-owned, offered to the model as functions, run here, and shown to the
 * client as `server_tool_use` / `mcp_tool_use` blocks followed by their result blocks.
 *
 * Budgets live here because only the request sees every round: a web search's `max_uses` counts
 * searches (a call with three queries costs three; a call the rest cannot cover is refused whole and
 * charges nothing; unparsable arguments charge nothing), a web fetch's counts fetches (every admitted
 * call, whatever its outcome; a call without a URL charges nothing).
 */
import type { GatewayConfig } from '../config.js'
import type { GatewayToolset } from '../tools/gateway-tools.js'
import { checkMcpDeclarations, openMcpToolset } from '../tools/mcp.js'
import { WEB_FETCH_FUNCTION, webFetchFunction } from '../tools/web-fetch.js'
import { WEB_SEARCH_FUNCTION, webSearchFunction } from '../tools/web-search.js'
import { type GatewayError, invalidRequest } from '../wire/errors.js'
import { isObject, type JsonObject } from '../wire/json.js'
import type { MessagesRequest } from './request.js'
import {
  checkMcpServers,
  type FetchDeclaration,
  mcpDeclarations,
  readDeclarations,
  type SearchDeclaration,
} from './tool-declarations.js'
import type { MessagesCall, MessagesCallResult, MessagesTools, Provenance } from './tool-types.js'
import { type Admission, admitFetch, admitSearch, WebBudget } from './web-calls.js'

function inputOf(argumentsText: string): JsonObject {
  try {
    const parsed: unknown = argumentsText.trim() === '' ? {} : JSON.parse(argumentsText)
    return isObject(parsed) ? parsed : {}
  } catch {
    return {}
  }
}

/** An MCP server's call, run on its connection. */
function admitMcp(call: MessagesCall, mcp: GatewayToolset | undefined): Admission {
  const set = mcp
  if (!set?.owns(call.name))
    return { output: `Error: ${call.name} is not a gateway tool.`, block: {}, isError: true }
  return async (signal) => {
    const result = await set.execute(
      { callId: call.id, name: call.name, arguments: call.arguments },
      call.id,
      signal,
    )
    const text = result.failed ? String(result.publicItem.error ?? result.output) : result.output
    return {
      output: result.output,
      block: {
        type: 'mcp_tool_result',
        tool_use_id: call.id,
        is_error: result.failed,
        content: [{ type: 'text', text }],
      },
      isError: result.failed,
    }
  }
}

/** Connects the request's MCP servers (none: undefined); a 4xx naming `mcp_servers` when one cannot run. */
async function openMcpServers(
  request: MessagesRequest,
  config: GatewayConfig,
  signal: AbortSignal,
): Promise<GatewayToolset | undefined | GatewayError> {
  const bad = checkMcpServers(request)
  if (bad) return bad
  const mcpTools = mcpDeclarations(request.mcpServers)
  const mcpBad = checkMcpDeclarations(mcpTools, config)
  if (mcpBad) return { ...mcpBad, param: mcpBad.param?.replace(/^tools/, 'mcp_servers') ?? null }
  if (mcpTools.length === 0) return undefined
  const opened = await openMcpToolset(mcpTools, signal)
  if (!('upstreamTools' in opened))
    return { ...opened, param: opened.param?.replace(/^tools/, 'mcp_servers') ?? null }
  return opened
}

/** The request's gateway tools once declared and connected: what the loop sees of them. */
function messagesTools(
  config: GatewayConfig,
  client: JsonObject[],
  search: SearchDeclaration | undefined,
  fetch: FetchDeclaration | undefined,
  mcp: GatewayToolset | undefined,
): MessagesTools {
  const budget = new WebBudget(search, fetch)
  /** Admission in model order: the budget decision is made before anything runs. */
  const admit = (call: MessagesCall, provenance: Provenance): Admission => {
    if (search && config.webSearch && call.name === WEB_SEARCH_FUNCTION)
      return admitSearch(call, config.webSearch, search, budget, provenance)
    if (fetch && config.webFetch && call.name === WEB_FETCH_FUNCTION)
      return admitFetch(call, config.webFetch, fetch, budget, provenance)
    return admitMcp(call, mcp)
  }
  return {
    upstreamTools: [
      ...client,
      ...(search && config.webSearch ? [webSearchFunction(config.webSearch.name)] : []),
      ...(fetch ? [webFetchFunction()] : []),
      ...(mcp?.upstreamTools ?? []),
    ],
    owns: (name) =>
      (search !== undefined && name === WEB_SEARCH_FUNCTION) ||
      (fetch !== undefined && name === WEB_FETCH_FUNCTION) ||
      (mcp?.owns(name) ?? false),
    useBlock(call) {
      if (mcp?.owns(call.name)) {
        const item = mcp.startItem({ callId: call.id, name: call.name, arguments: call.arguments }, call.id)
        return {
          type: 'mcp_tool_use',
          id: call.id,
          name: String(item.name ?? call.name),
          server_name: String(item.server_label ?? ''),
          input: inputOf(call.arguments),
        }
      }
      return { type: 'server_tool_use', id: call.id, name: call.name, input: inputOf(call.arguments) }
    },
    async execute(calls, provenance, signal) {
      const plans = calls.map((call) => admit(call, provenance))
      return Promise.all(
        plans.map(
          (plan): Promise<MessagesCallResult> =>
            typeof plan === 'function'
              ? plan(AbortSignal.any([signal, AbortSignal.timeout(config.toolTimeoutMs)])).catch(
                  (error: unknown) => ({
                    output: `Error: ${(error as Error).message}`,
                    block: {},
                    isError: true,
                  }),
                )
              : Promise.resolve(plan),
        ),
      )
    },
    serverToolUse() {
      if (!search && !fetch) return null
      return {
        ...(search ? { web_search_requests: budget.searches } : {}),
        ...(fetch ? { web_fetch_requests: budget.fetches } : {}),
      }
    },
    close: async () => {
      await mcp?.close()
    },
  }
}

/** Checks the request's tools and connects its MCP servers; a 4xx when a declaration cannot run. */
export async function openMessagesTools(
  request: MessagesRequest,
  config: GatewayConfig,
  signal: AbortSignal,
  warn: (message: string) => void,
): Promise<MessagesTools | GatewayError> {
  const declared = readDeclarations(request, config, warn)
  if ('status' in declared) return declared
  const mcp = await openMcpServers(request, config, signal)
  if (mcp !== undefined && 'status' in mcp) return mcp
  const clientNames = new Set(declared.client.map((tool) => String(tool.name)))
  const clash = mcp?.upstreamTools.find((tool) => clientNames.has(String(tool.name)))
  if (clash) {
    await mcp?.close()
    return invalidRequest(
      `An MCP tool and a client tool are both named '${String(clash.name)}'; rename the client tool.`,
      'tools',
    )
  }
  return messagesTools(config, declared.client, declared.search, declared.fetch, mcp)
}
