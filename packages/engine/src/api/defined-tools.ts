import { isAbsolute, join, resolve } from 'node:path'
import type { Action } from '@z-engine/policy'
import type { ToolResultContent } from '@z-engine/protocol'
import { type ActionCtx, budgetOutput, TOOL_NAMES, type Tool, type ToolResult } from '@z-engine/tools'
import type { DefinedTool, ToolActionDescription, ToolExecuteResult } from './define-tool.js'

/**
 * The embedder's tools of a session, in stable order (the engine's, then the session's), or why
 * they cannot be offered: a name used twice or taken by a built-in tool.
 */
export function collectDefinedTools(
  ...lists: ReadonlyArray<readonly DefinedTool[] | undefined>
): { ok: true; tools: DefinedTool[] } | { ok: false; message: string } {
  const builtin = new Set(TOOL_NAMES.map((name) => name.toLowerCase()))
  const seen = new Set<string>()
  const tools: DefinedTool[] = []
  for (const tool of lists.flatMap((list) => list ?? [])) {
    if (tool?.kind !== 'definedTool')
      return { ok: false, message: 'Every entry of `tools` must come from defineTool({...}).' }
    const key = tool.name.toLowerCase()
    if (builtin.has(key))
      return { ok: false, message: `Tool '${tool.name}' has the name of a built-in tool; rename it.` }
    if (seen.has(key))
      return { ok: false, message: `Two tools are named '${tool.name}'; tool names must be unique.` }
    seen.add(key)
    tools.push(tool)
  }
  return { ok: true, tools }
}

/**
 * A tool defined in code as an engine Tool: its schema, an Action for the one gate (by default
 * "other", read-only only when declared so — so it asks unless `readOnly`), and `execute` wrapped so
 * a throw, bad parse or long output becomes a proper result.
 */
export function definedToolAsTool(defined: DefinedTool): Tool {
  return {
    name: defined.name,
    description: () => defined.description,
    inputSchema: defined.inputSchema,
    isReadOnly: () => defined.readOnly,
    isConcurrencySafe: () => defined.concurrencySafe,
    action: (input, ctx) => actionOf(defined, input, ctx),
    title: (input) => {
      const title = defined.title?.(input)
      return typeof title === 'string' && title !== '' ? title : defined.name
    },
    preview: async () => undefined,
    call: async (input, ctx, signal) => {
      let value: unknown = input
      if (defined.parse) {
        const parsed = await defined.parse(input)
        if (!parsed.ok)
          return failure('invalid_input', `Invalid input for ${defined.name}: ${parsed.message}`)
        value = parsed.value
      }
      let result: ToolExecuteResult
      try {
        result = await defined.execute(value, {
          signal,
          sessionId: ctx.sessionId,
          agentId: ctx.agentId,
          toolUseId: ctx.toolUseId,
          projectRoot: ctx.projectRoot,
          cwd: ctx.cwd,
          progress: (message) => ctx.progress({ message }),
        })
      } catch (error) {
        return failure(
          'tool_failed',
          `${defined.name} failed: ${error instanceof Error ? error.message : String(error)}`,
        )
      }
      return resultOf(defined.name, result, (text) => budgetOutput(ctx, text, 'text', defined.name))
    },
  }
}

async function resultOf(
  name: string,
  result: ToolExecuteResult,
  budget: (text: string) => Promise<string>,
): Promise<ToolResult> {
  if (typeof result === 'string')
    return { ok: true, output: { content: [{ type: 'text', text: await budget(result) }] } }
  if (typeof result !== 'object' || result === null || !('content' in result))
    return failure(
      'bad_result',
      `${name} returned ${JSON.stringify(result) ?? String(result)}; execute must return a string or { content }.`,
    )
  const blocks: ToolResultContent[] =
    typeof result.content === 'string' ? [{ type: 'text', text: result.content }] : [...result.content]
  const content = await Promise.all(
    blocks.map(async (block) =>
      block.type === 'text' ? { ...block, text: await budget(block.text) } : block,
    ),
  )
  if (result.isError === true) {
    const text = content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n')
    return failure('tool_error', text === '' ? `${name} reported an error` : text)
  }
  return { ok: true, output: { content, ...(result.details ? { details: result.details } : {}) } }
}

function failure(code: string, message: string): ToolResult {
  return { ok: false, error: { code, message } }
}

/** The policy's Action for a call; anything the tool's `action` cannot describe asks. */
function actionOf(defined: DefinedTool, input: unknown, ctx: ActionCtx): Action {
  const other: Action = { type: 'other', toolName: defined.name, readOnly: defined.readOnly }
  if (!defined.action) return other
  let described: ToolActionDescription
  try {
    described = defined.action(input)
  } catch (error) {
    return {
      ...other,
      readOnly: false,
      malformed: `its action() threw: ${error instanceof Error ? error.message : String(error)}`,
    }
  }
  const at = (path: unknown) => resolvePath(path, ctx)
  switch (described?.type) {
    case 'read':
    case 'write': {
      const paths = Array.isArray(described.paths) ? described.paths.map(at) : undefined
      if (paths === undefined || paths.length === 0 || paths.includes(undefined))
        return {
          ...other,
          readOnly: false,
          malformed: `its action() gave ${described.type} without string paths`,
        }
      return { type: described.type, paths: paths as string[] }
    }
    case 'execute': {
      const cwd = described.cwd === undefined ? ctx.cwd : at(described.cwd)
      if (typeof described.command !== 'string' || cwd === undefined)
        return { ...other, readOnly: false, malformed: 'its action() gave execute without a string command' }
      return { type: 'execute', command: described.command, cwd }
    }
    case 'fetch':
      if (typeof described.url !== 'string')
        return { ...other, readOnly: false, malformed: 'its action() gave fetch without a string url' }
      return { type: 'fetch', url: described.url }
    default:
      return { ...other, readOnly: false, malformed: `its action() returned ${JSON.stringify(described)}` }
  }
}

function resolvePath(path: unknown, ctx: ActionCtx): string | undefined {
  if (typeof path !== 'string' || path === '') return undefined
  if (path === '~') return ctx.home
  if (path.startsWith('~/')) return join(ctx.home, path.slice(2))
  return isAbsolute(path) ? resolve(path) : resolve(ctx.cwd, path)
}
