import type { Action } from '@z-engine/policy'
import { HOOK_EVENTS, type SettingsLayer, type SuggestedRule } from '@z-engine/protocol'
import type { CanUseTool as EngineCanUseTool } from '../batch/can-use-tool.js'
import type { InProcessMcpServer } from '../mcp/mcp-manager.js'
import { resolveModelAlias } from '../model/aliases.js'
import { neverFiredReason } from '../workspace/hooks/events.js'
import type { HookCallbackMatcher, HookCallbacks } from '../workspace/hooks/hook-callbacks.js'
import type { HookEvent } from '../workspace/hooks/types.js'
import { memoryTransportPair } from './memory-transport.js'
import type {
  HookInput,
  Options,
  PermissionMode,
  PermissionRuleValue,
  PermissionUpdate,
} from './sdk-types.js'
import { claudeToolName, engineMatcher, engineRule, engineToolName } from './tool-names.js'

/** The denial a call that would ask gets when `query` was given no `canUseTool`. */
export const NO_CAN_USE_TOOL_MESSAGE =
  'query() was called without canUseTool, so calls that need permission are denied. Pass canUseTool, list the tool in allowedTools, or choose another permissionMode.'

/** The smallest thinking budget the providers accept (the settings schema's minimum too). */
const MIN_THINKING_BUDGET = 1024

const MODES: readonly PermissionMode[] = [
  'default',
  'acceptEdits',
  'bypassPermissions',
  'plan',
  'dontAsk',
  'auto',
]

/** The message a call that would ask gets in `dontAsk` mode. */
export const DONT_ASK_MESSAGE =
  'permissionMode is dontAsk, so calls not allowed by allowedTools or the settings rules are denied.'

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

/**
 * The engine's mode for a Claude Agent SDK mode: `dontAsk` is default mode whose asks are denied
 * (see canUseToolOf); `auto` (Claude Code's classifier-approved mode) runs as `acceptEdits`, the
 * nearest mode the engine has: edits in the workspace run, commands still ask.
 */
export function engineMode(mode: PermissionMode): 'default' | 'acceptEdits' | 'bypassPermissions' | 'plan' {
  switch (mode) {
    case 'dontAsk':
      return 'default'
    case 'auto':
      return 'acceptEdits'
    case 'default':
    case 'acceptEdits':
    case 'bypassPermissions':
    case 'plan':
      return mode
    default: {
      const never: never = mode
      throw new Error(`unknown permission mode ${String(never)}`)
    }
  }
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
    ...(options.allowedTools ? { allow: options.allowedTools.map(engineRule) } : {}),
    ...(options.disallowedTools ? { deny: options.disallowedTools.map(engineRule) } : {}),
    ...(options.additionalDirectories ? { additional_directories: options.additionalDirectories } : {}),
  }
  const thinking = options.maxThinkingTokens
  const model = {
    ...(thinking === undefined
      ? {}
      : thinking > 0
        ? { thinking: true, thinking_budget_tokens: Math.max(MIN_THINKING_BUDGET, Math.floor(thinking)) }
        : { thinking: false }),
    // Claude Code's switch when the main model stays overloaded (the engine's `model.fallback`).
    ...(options.fallbackModel !== undefined ? { fallback: modelRef(options.fallbackModel) } : {}),
  }
  return {
    ...(Object.keys(permissions).length > 0 ? { permissions } : {}),
    ...(Object.keys(model).length > 0 ? { model } : {}),
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
 * (as in Claude Code); calls that would ask go to it, or are denied when there is none (or in
 * `dontAsk` mode), so a query never waits for an approval nobody can give. `onInterrupt` runs when a
 * denial asks to stop; `onPermissions` applies an allow's `updatedPermissions`.
 */
export function canUseToolOf(
  options: Options,
  hooks: {
    mode: () => PermissionMode | undefined
    onInterrupt: () => void
    onPermissions: (updates: PermissionUpdate[]) => void
  },
): EngineCanUseTool {
  const callback = options.canUseTool
  return async (request, { signal }) => {
    if (request.verdict.decision === 'allow') return { behavior: 'allow' }
    if (hooks.mode() === 'dontAsk') return { behavior: 'deny', message: DONT_ASK_MESSAGE }
    if (callback === undefined) return { behavior: 'deny', message: NO_CAN_USE_TOOL_MESSAGE }
    const toolName = claudeToolName(request.toolName)
    const blockedPath = pathOf(request.action)
    const answer = await callback(toolName, request.input, {
      signal,
      suggestions: suggestionsFor(toolName, request.verdict.suggestion),
      ...(blockedPath !== undefined ? { blockedPath } : {}),
      decisionReason: request.verdict.reason,
      title: request.title,
      toolUseID: request.toolUseId,
      ...(request.agentId !== 'main' ? { agentID: request.agentId } : {}),
      requestId: request.toolUseId,
    })
    if (answer.behavior === 'allow') {
      if (answer.updatedPermissions !== undefined && answer.updatedPermissions.length > 0)
        hooks.onPermissions(answer.updatedPermissions)
      return answer.updatedInput !== undefined
        ? { behavior: 'allow', updatedInput: answer.updatedInput }
        : { behavior: 'allow' }
    }
    if (answer.interrupt === true) queueMicrotask(hooks.onInterrupt)
    return { behavior: 'deny', message: answer.message }
  }
}

/** The file a read or write would touch: what made it ask. */
function pathOf(action: Action): string | undefined {
  return action.type === 'read' || action.type === 'write' ? action.paths[0] : undefined
}

/** The policy's suggested rule as Claude Code's permission updates; the tool alone when it has none. */
function suggestionsFor(toolName: string, suggestion: SuggestedRule | undefined): PermissionUpdate[] {
  const rules = suggestion === undefined ? [toolName] : (suggestion.rules ?? [suggestion.rule])
  return [
    {
      type: 'addRules',
      rules: rules.map(ruleValue),
      behavior: 'allow',
      destination: suggestion?.scope === 'project' ? 'localSettings' : 'session',
    },
  ]
}

/** `Bash(npm test:*)` → `{ toolName: 'Bash', ruleContent: 'npm test:*' }`. */
function ruleValue(rule: string): PermissionRuleValue {
  const open = rule.indexOf('(')
  if (open < 0 || !rule.endsWith(')')) return { toolName: claudeToolName(rule) }
  return { toolName: claudeToolName(rule.slice(0, open)), ruleContent: rule.slice(open + 1, -1) }
}

/** A permission rule from Claude Code's rule value (`updatedPermissions`). */
export function ruleText(value: PermissionRuleValue): string {
  const tool = engineToolName(value.toolName)
  return value.ruleContent === undefined ? tool : `${tool}(${value.ruleContent})`
}

/**
 * The query's hook events a session never fires, each with why: the engine's hook event table
 * (HOOK_EVENT_TABLE) says which of Claude Code's events it has a moment for; an event the table does
 * not have (the SDK's `Interrupt`) never fires either.
 */
export function hookEventsThatNeverFire(options: Options): string[] {
  return Object.keys(options.hooks ?? {}).flatMap((event) => {
    if (!isEngineEvent(event)) return [`${event} (Z Engine has no such event)`]
    const why = neverFiredReason(event)
    return why === undefined ? [] : [`${event} (${why})`]
  })
}

function isEngineEvent(event: string): event is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(event)
}

/**
 * The Claude Agent SDK's hook callbacks as the engine's hook functions, on the engine's one hook
 * event table: snake_case input with the tool-use id (also the callback's second argument) and
 * Claude Code's tool names; matchers that name Claude Code's tools (`Task`) match the engine's.
 */
export function hooksOf(options: Options): HookCallbacks {
  const hooks: Record<string, HookCallbackMatcher[]> = {}
  for (const [event, matchers] of Object.entries(options.hooks ?? {})) {
    if (!isEngineEvent(event)) continue
    const list = hooks[event] ?? []
    hooks[event] = list
    for (const matcher of matchers ?? []) {
      for (const callback of matcher.hooks) {
        list.push({
          ...(matcher.matcher !== undefined ? { matcher: engineMatcher(matcher.matcher) } : {}),
          ...(matcher.timeout !== undefined ? { timeoutSecs: matcher.timeout } : {}),
          hook: async (input, { signal }) => {
            const fields = input as unknown as Record<string, unknown>
            const toolUseId = typeof fields.toolUseId === 'string' ? fields.toolUseId : undefined
            const sdkInput = snakeCase(fields)
            if (typeof sdkInput.tool_name === 'string')
              sdkInput.tool_name = claudeToolName(sdkInput.tool_name)
            const output = await callback(sdkInput as HookInput, toolUseId, { signal })
            return output as Awaited<ReturnType<HookCallbackMatcher['hook']>>
          },
        })
      }
    }
  }
  return hooks as HookCallbacks
}

/** Top-level keys in snake_case (`toolInput` → `tool_input`); values are left as they are. */
function snakeCase(input: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input).map(([key, value]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), value]),
  )
}
