import type { ToolCtx } from './ctx.js'
import { budgetOutput } from './output-budget.js'
import type { OutputKind } from './output-kind.js'
import { errorMessage, errorResult } from './results.js'
import type { ToolResult } from './tool-result.js'

/**
 * The result when a tool's port is off. The toolset leaves such tools out, so this only happens
 * when an embedder calls a tool directly; the message says what is missing.
 */
export function portMissing(toolName: string, service: string): ToolResult {
  return errorResult(
    'unavailable',
    `${toolName} is not available in this session (no ${service} is configured).`,
  )
}

/**
 * Runs a port call and turns a throw into a failed result: ports are implemented outside this
 * package, and a tool call must never throw across the engine boundary.
 */
export async function guardPort(toolName: string, work: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await work()
  } catch (error) {
    return errorResult('port_error', `${toolName} failed: ${errorMessage(error)}`)
  }
}

/**
 * Applies the output budget to each long text block of a port's result (spilling the full text),
 * so a huge MCP resource or reference list keeps its head and names the artifact. Images and
 * errors pass through.
 */
export async function budgetPortResult(
  ctx: ToolCtx,
  result: ToolResult,
  kind: OutputKind,
  hint: string,
): Promise<ToolResult> {
  if (!result.ok) return result
  const content = await Promise.all(
    result.output.content.map(async (block) =>
      block.type === 'text'
        ? { type: 'text' as const, text: await budgetOutput(ctx, block.text, kind, hint) }
        : block,
    ),
  )
  return { ok: true, output: { ...result.output, content } }
}
