import { HOOK_EVENTS, type SettingsLayer } from '@z-engine/protocol'
import type { CanUseTool as EngineCanUseTool } from '../batch/can-use-tool.js'
import type { InProcessMcpServer } from '../mcp/mcp-manager.js'
import { resolveModelAlias } from '../model/aliases.js'
import type { HookCallbackMatcher, HookCallbacks } from '../workspace/hooks/hook-callbacks.js'
import { memoryTransportPair } from './memory-transport.js'
import type { HookInput, Options, PermissionMode } from './sdk-types.js'

/** The denial a call that would ask gets when `query` was given no `canUseTool`. */
export const NO_CAN_USE_TOOL_MESSAGE =
  'query() was called without canUseTool, so calls that need permission are denied. Pass canUseTool, list the tool in allowedTools, or choose another permissionMode.'

/** The smallest thinking budget the providers accept (the settings schema's minimum too). */
const MIN_THINKING_BUDGET = 1024

const MODES: readonly PermissionMode[] = ['default', 'acceptEdits', 'bypassPermissions', 'plan']

/** A model name as the engine reads it: a bare Claude model id or alias (`opus`) is an Anthropic one. */
export function modelRef(model: string): string {
  return model.includes('/') ? model : `anthropic/${resolveModelAlias(model) ?? model}`
}

/** The permission mode, or an error naming the modes there are. */
export function permissionMode(mode: string | undefined): PermissionMode | undefined {
  if (mode === undefined) return undefined
  if ((MODES as readonly string[]).includes(mode)) return mode as PermissionMode
  throw new Error(`options.permissionMode '${mode}' is not supported; use one of: ${MODES.join(', ')}.`)
}

/** allowedTools, disallowedTools, additionalDirectories, maxTurns, maxThinkingTokens and the configured MCP servers as a settings layer. */
export function settingsOf(options: Options): SettingsLayer {
  const servers: Record<string, Record<string, unknown>> = {}
  for (const [name, config] of Object.entries(options.mcpServers ?? {})) {
    if (config.type === 'sdk') continue
    if (config.type === 'http' || config.type === 'sse') {
      servers[name] = {
        type: config.type,
        url: config.url,
        ...(config.headers ? { headers: config.headers } : {}),
      }
    } else {
      servers[name] = {
        type: 'stdio',
        command: config.command,
        ...(config.args ? { args: config.args } : {}),
        ...(config.env ? { env: config.env } : {}),
      }
    }
  }
  const permissions = {
    ...(options.allowedTools ? { allow: options.allowedTools } : {}),
    ...(options.disallowedTools ? { deny: options.disallowedTools } : {}),
    ...(options.additionalDirectories ? { additional_directories: options.additionalDirectories } : {}),
  }
  const thinking = options.maxThinkingTokens
  return {
    ...(Object.keys(permissions).length > 0 ? { permissions } : {}),
    ...(thinking !== undefined
      ? {
          model:
            thinking > 0
              ? {
                  thinking: true,
                  thinking_budget_tokens: Math.max(MIN_THINKING_BUDGET, Math.floor(thinking)),
                }
              : { thinking: false },
        }
      : {}),
    ...(options.maxTurns !== undefined ? { agents: { max_turns: options.maxTurns } } : {}),
    ...(Object.keys(servers).length > 0 ? { mcp: { servers } } : {}),
  } as SettingsLayer
}

/** The in-process (`type: 'sdk'`) servers, each connected over an in-memory transport pair. */
export function inProcessServers(options: Options): InProcessMcpServer[] {
  const servers: InProcessMcpServer[] = []
  for (const [name, config] of Object.entries(options.mcpServers ?? {})) {
    if (config.type !== 'sdk') continue
    const instance = config.instance
    if (typeof instance?.connect !== 'function') {
      throw new Error(
        `options.mcpServers.${name} has type 'sdk' but no server instance with connect(); use createSdkMcpServer().`,
      )
    }
    servers.push({
      name,
      connect: async () => {
        const [client, server] = memoryTransportPair()
        await instance.connect(server)
        return client
      },
    })
  }
  return servers
}

/**
 * The Claude Agent SDK's `canUseTool` as the engine's: calls the policy allows run without asking it
 * (as in Claude Code); calls that would ask go to it, or are denied when there is none, so a query
 * never waits for an approval nobody can give. `onInterrupt` runs when a denial asks to stop.
 */
export function canUseToolOf(options: Options, onInterrupt: () => void): EngineCanUseTool {
  const callback = options.canUseTool
  return async (request, { signal }) => {
    if (request.verdict.decision === 'allow') return { behavior: 'allow' }
    if (callback === undefined) return { behavior: 'deny', message: NO_CAN_USE_TOOL_MESSAGE }
    const answer = await callback(request.toolName, request.input, {
      signal,
      suggestions: [],
      toolUseID: request.toolUseId,
    })
    if (answer.behavior === 'allow') {
      return answer.updatedInput !== undefined
        ? { behavior: 'allow', updatedInput: answer.updatedInput }
        : { behavior: 'allow' }
    }
    if (answer.interrupt === true) queueMicrotask(onInterrupt)
    return { behavior: 'deny', message: answer.message }
  }
}

/** The Claude Agent SDK's hook callbacks as the engine's hook functions (snake_case input). */
export function hooksOf(options: Options): HookCallbacks {
  const hooks: Record<string, HookCallbackMatcher[]> = {}
  for (const [event, matchers] of Object.entries(options.hooks ?? {})) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      throw new Error(
        `options.hooks.${event} is not supported; the hook events are: ${HOOK_EVENTS.join(', ')}.`,
      )
    }
    hooks[event] = (matchers ?? []).flatMap((matcher) =>
      matcher.hooks.map(
        (callback): HookCallbackMatcher => ({
          ...(matcher.matcher !== undefined ? { matcher: matcher.matcher } : {}),
          ...(matcher.timeout !== undefined ? { timeoutSecs: matcher.timeout } : {}),
          hook: async (input, { signal }) => {
            const output = await callback(snakeCase(input) as HookInput, undefined, { signal })
            return output as Awaited<ReturnType<HookCallbackMatcher['hook']>>
          },
        }),
      ),
    )
  }
  return hooks as HookCallbacks
}

/** Top-level keys in snake_case (`toolInput` → `tool_input`); values are left as they are. */
function snakeCase(input: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input).map(([key, value]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), value]),
  )
}
