/**
 * Client tools on a Chat Completions upstream, which knows only functions. Each Responses tool type
 * the gateway can express becomes a function and each call of it comes back as the item the client
 * declared it for, so a Responses client (Codex) never sees the difference:
 *
 * - `function` keeps its schema; inside a `namespace` it is named `<namespace>__<name>` and its call
 *   carries `namespace` again.
 * - `custom` (freeform or grammar input, e.g. Codex's `apply_patch`) becomes a function taking one
 *   string, `input` (the grammar is quoted in the description, as Codex's own function form of
 *   `apply_patch` does); a call becomes a `custom_tool_call` whose `input` is that string.
 * - a client-executed `tool_search` becomes a function with its `parameters`; a call becomes a
 *   `tool_search_call` with the parsed `arguments`; the tools a `tool_search_output` loads are
 *   declared from then on.
 * - `local_shell` becomes a function taking `command` (argv), `working_directory`, `timeout_ms`; a call
 *   becomes a `local_shell_call` with an `exec` action.
 *
 * Anything else (hosted tools such as `web_search` without the gateway's backend, `file_search`,
 * `computer_use_preview`, unknown types) cannot be told to a Chat model and is refused by name.
 */
import { type GatewayError, invalidRequest } from '../wire/errors.js'
import { isObject, type Json, type JsonObject } from '../wire/json.js'

/** What a Chat function name stands for. */
export type ChatToolKind =
  | { kind: 'function'; name: string; namespace?: string }
  | { kind: 'custom'; name: string; namespace?: string }
  | { kind: 'tool_search' }
  | { kind: 'local_shell' }

/** The Chat functions of a request and what each name stands for. */
export interface ChatTools {
  functions: JsonObject[]
  kinds: Map<string, ChatToolKind>
}

const NAMESPACE_SEPARATOR = '__'

/** The Chat function name of a (possibly namespaced) tool. */
export function chatName(name: string, namespace?: unknown): string {
  return typeof namespace === 'string' && namespace !== ''
    ? `${namespace}${NAMESPACE_SEPARATOR}${name}`
    : name
}

const LOCAL_SHELL_PARAMETERS = {
  type: 'object',
  properties: {
    command: { type: 'array', items: { type: 'string' }, description: 'The command and its arguments.' },
    working_directory: { type: 'string', description: 'The directory to run it in.' },
    timeout_ms: { type: 'number', description: 'A time limit in milliseconds.' },
  },
  required: ['command'],
}

function customDescription(tool: JsonObject): string {
  const base = typeof tool.description === 'string' ? tool.description : ''
  const format = isObject(tool.format) ? tool.format : undefined
  const grammar =
    format?.type === 'grammar' && typeof format.definition === 'string'
      ? `\n\nPut the whole input in \`input\`, as plain text (not JSON); it must match this ${String(format.syntax ?? '')} grammar:\n${format.definition}`
      : '\n\nPut the whole input in `input`, as plain text.'
  return `${base}${grammar}`
}

function functionOf(name: string, description: unknown, parameters: unknown, strict?: unknown): JsonObject {
  return {
    type: 'function',
    function: {
      name,
      ...(typeof description === 'string' ? { description } : {}),
      parameters: (parameters ?? { type: 'object', properties: {} }) as Json,
      ...(typeof strict === 'boolean' ? { strict } : {}),
    },
  }
}

function add(tools: ChatTools, tool: JsonObject, namespace?: string): string | undefined {
  switch (tool.type) {
    case 'function': {
      const name = chatName(String(tool.name), namespace)
      tools.functions.push(functionOf(name, tool.description, tool.parameters, tool.strict))
      tools.kinds.set(name, {
        kind: 'function',
        name: String(tool.name),
        ...(namespace ? { namespace } : {}),
      })
      return undefined
    }
    case 'custom': {
      const name = chatName(String(tool.name), namespace)
      tools.functions.push(
        functionOf(name, customDescription(tool), {
          type: 'object',
          properties: { input: { type: 'string', description: 'The raw input of the tool.' } },
          required: ['input'],
          additionalProperties: false,
        }),
      )
      tools.kinds.set(name, { kind: 'custom', name: String(tool.name), ...(namespace ? { namespace } : {}) })
      return undefined
    }
    case 'namespace': {
      if (namespace !== undefined) return 'a namespace inside a namespace'
      for (const inner of Array.isArray(tool.tools) ? tool.tools : []) {
        if (!isObject(inner)) continue
        const refused = add(tools, inner, String(tool.name))
        if (refused) return refused
      }
      return undefined
    }
    case 'tool_search':
      if (tool.execution !== 'client') return "'tool_search' executed by the server"
      tools.functions.push(functionOf('tool_search', tool.description, tool.parameters))
      tools.kinds.set('tool_search', { kind: 'tool_search' })
      return undefined
    case 'local_shell':
      tools.functions.push(
        functionOf('local_shell', 'Runs a command on the local machine.', LOCAL_SHELL_PARAMETERS),
      )
      tools.kinds.set('local_shell', { kind: 'local_shell' })
      return undefined
    default:
      return `type '${String(tool.type)}'`
  }
}

/** The Chat functions for a request's client tools, or what cannot be expressed. */
export function chatToolsOf(declared: readonly JsonObject[]): ChatTools | { refused: string; index: number } {
  const tools: ChatTools = { functions: [], kinds: new Map() }
  for (const [index, tool] of declared.entries()) {
    const refused = add(tools, tool)
    if (refused) return { refused, index }
  }
  return tools
}

/** The 400 for a client tool a Chat upstream cannot be told about (checked before anything runs). */
export function checkChatTools(declared: readonly JsonObject[]): GatewayError | undefined {
  const result = chatToolsOf(declared)
  if (!('refused' in result)) return undefined
  return invalidRequest(
    `tools[${result.index}] (${result.refused}) cannot be offered to a Chat Completions upstream, which knows only functions (--upstream-api chat); remove it (for Codex: web_search = "disabled" in its config.toml) or use a Responses upstream.`,
    `tools[${result.index}].type`,
    'unsupported_tool',
  )
}

/** Adds the tools a client's `tool_search_output` items loaded (they are declared from then on). */
export function addLoadedTools(tools: ChatTools, input: readonly JsonObject[]): void {
  for (const item of input) {
    if (item.type !== 'tool_search_output' || !Array.isArray(item.tools)) continue
    for (const tool of item.tools) if (isObject(tool)) add(tools, tool)
  }
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * A Chat tool call as the Responses item its tool was declared as. `id` is the item id to use;
 * `arguments` the complete JSON arguments text.
 */
export function itemOfChatCall(
  kinds: ReadonlyMap<string, ChatToolKind>,
  call: { id: string; callId: string; name: string; arguments: string },
): JsonObject {
  const kind = kinds.get(call.name)
  const parsed = parseArguments(call.arguments)
  switch (kind?.kind) {
    case 'custom': {
      // A model that ignored the wrapper and sent the raw text keeps it as the input.
      const input = isObject(parsed) && typeof parsed.input === 'string' ? parsed.input : call.arguments
      return {
        id: call.id,
        type: 'custom_tool_call',
        call_id: call.callId,
        name: kind.name,
        input,
        ...(kind.namespace ? { namespace: kind.namespace } : {}),
      }
    }
    case 'tool_search':
      return {
        id: call.id,
        type: 'tool_search_call',
        status: 'completed',
        call_id: call.callId,
        execution: 'client',
        arguments: (parsed ?? {}) as Json,
      }
    case 'local_shell': {
      const args = isObject(parsed) ? parsed : {}
      return {
        id: call.id,
        type: 'local_shell_call',
        status: 'completed',
        call_id: call.callId,
        action: {
          type: 'exec',
          command: Array.isArray(args.command) ? args.command.map(String) : [],
          env: {},
          ...(typeof args.working_directory === 'string'
            ? { working_directory: args.working_directory }
            : {}),
          ...(typeof args.timeout_ms === 'number' ? { timeout_ms: args.timeout_ms } : {}),
        },
      }
    }
    default:
      return {
        id: call.id,
        type: 'function_call',
        status: 'completed',
        call_id: call.callId,
        name: kind?.kind === 'function' ? kind.name : call.name,
        arguments: call.arguments,
        ...(kind?.kind === 'function' && kind.namespace ? { namespace: kind.namespace } : {}),
      }
  }
}

/** A client call item of the input as a Chat tool call (name and JSON arguments); undefined otherwise. */
export function chatCallOf(item: JsonObject): { id: string; name: string; arguments: string } | undefined {
  const id = String(item.call_id)
  switch (item.type) {
    case 'function_call':
      return {
        id,
        name: chatName(String(item.name), item.namespace),
        arguments: String(item.arguments ?? ''),
      }
    case 'custom_tool_call':
      return {
        id,
        name: chatName(String(item.name), item.namespace),
        arguments: JSON.stringify({ input: String(item.input ?? '') }),
      }
    case 'tool_search_call':
      return { id, name: 'tool_search', arguments: JSON.stringify(item.arguments ?? {}) }
    case 'local_shell_call': {
      const action = isObject(item.action) ? item.action : {}
      const { type: _type, env: _env, ...rest } = action
      return { id, name: 'local_shell', arguments: JSON.stringify(rest) }
    }
    default:
      return undefined
  }
}

/** The text a Chat `tool` message carries for an output item; undefined when it is not an output. */
export function chatOutputOf(item: JsonObject): { callId: string; content: string } | undefined {
  const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value))
  switch (item.type) {
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'local_shell_call_output':
      return { callId: String(item.call_id ?? item.id), content: text(item.output) }
    case 'tool_search_output':
      return { callId: String(item.call_id), content: text({ tools: item.tools ?? [] }) }
    default:
      return undefined
  }
}
