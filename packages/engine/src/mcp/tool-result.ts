import type { CallToolResult } from '@modelcontextprotocol/client'
import type { ToolResultContent } from '@z-engine/protocol'
import { budgetOutput, type ToolCtx, type ToolResult } from '@z-engine/tools'

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])
type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'

/**
 * Maps an MCP `tools/call` result onto a tool result: text as text; images as images when the model
 * has vision (a note otherwise); embedded text resources inline with their URI; resource links,
 * blobs and audio as one-line notes; `structuredContent` as JSON text when the server sent no text
 * (else kept in `details`). Long text goes through the same output budget and artifact spill as the
 * built-ins. `isError` results become failed results carrying the server's text.
 */
export async function mapCallToolResult(
  server: string,
  result: CallToolResult,
  ctx: Pick<ToolCtx, 'vision' | 'limits' | 'spill' | 'outputBudget'>,
  hint: string,
): Promise<ToolResult> {
  const content: ToolResultContent[] = []
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        content.push({ type: 'text', text: block.text })
        break
      case 'image':
        if (ctx.vision && IMAGE_TYPES.has(block.mimeType))
          content.push({
            type: 'image',
            source: { type: 'base64', mediaType: block.mimeType as ImageMediaType, data: block.data },
          })
        else
          content.push({
            type: 'text',
            text: `[image ${block.mimeType}, ${approxBytes(block.data)} bytes, not shown]`,
          })
        break
      case 'audio':
        content.push({
          type: 'text',
          text: `[audio ${block.mimeType}, ${approxBytes(block.data)} bytes, not shown]`,
        })
        break
      case 'resource_link':
        content.push({
          type: 'text',
          text: `Resource link: ${block.name} <${block.uri}>${block.description ? ` — ${block.description}` : ''} (read it with ReadMcpResource server="${server}")`,
        })
        break
      case 'resource': {
        const resource = block.resource
        content.push({
          type: 'text',
          text:
            'text' in resource && typeof resource.text === 'string'
              ? `Resource <${resource.uri}>:\n${resource.text}`
              : `[binary resource <${resource.uri}>${resource.mimeType ? ` ${resource.mimeType}` : ''}, not shown]`,
        })
        break
      }
      default:
        content.push({ type: 'text', text: `[unsupported content ${(block as { type: string }).type}]` })
    }
  }
  const structured = result.structuredContent
  const hasText = content.some((block) => block.type === 'text')
  if (structured !== undefined && !hasText)
    content.push({ type: 'text', text: JSON.stringify(structured, null, 2) })
  const budgeted = await Promise.all(
    content.map(async (block) =>
      block.type === 'text'
        ? { type: 'text' as const, text: await budgetOutput(ctx as ToolCtx, block.text, 'text', hint) }
        : block,
    ),
  )
  if (result.isError === true) {
    const text = budgeted.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n')
    return {
      ok: false,
      error: { code: 'mcp_tool_error', message: text === '' ? 'the MCP tool reported an error' : text },
    }
  }
  if (budgeted.length === 0) budgeted.push({ type: 'text', text: '(no output)' })
  return {
    ok: true,
    output: {
      content: budgeted,
      ...(structured !== undefined && hasText ? { details: { structuredContent: structured } } : {}),
    },
  }
}

function approxBytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4)
}
