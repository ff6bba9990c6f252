import type {
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/client'
import type { ToolResultContent } from '@z-engine/protocol'

/** One server's resources and resource templates as lines the model can pick a URI from. */
export function formatResourceList(
  server: string,
  resources: readonly Resource[],
  templates: readonly ResourceTemplate[],
): string {
  const lines = [`${server}:`]
  for (const resource of resources)
    lines.push(
      `- ${resource.uri} — ${resource.title ?? resource.name}${resource.mimeType ? ` (${resource.mimeType})` : ''}${resource.description ? `: ${resource.description.split('\n')[0]}` : ''}`,
    )
  for (const template of templates)
    lines.push(
      `- template ${template.uriTemplate} — ${template.title ?? template.name}${template.description ? `: ${template.description.split('\n')[0]}` : ''} (fill in the {placeholders} and read it)`,
    )
  if (lines.length === 1) lines.push('- (no resources)')
  return lines.join('\n')
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])

/** A `resources/read` result as tool content: text as text, images as images, other blobs as a note. */
export function formatResourceContents(contents: ReadResourceResult['contents']): ToolResultContent[] {
  const blocks: ToolResultContent[] = []
  for (const item of contents) {
    if ('text' in item && typeof item.text === 'string') {
      blocks.push({ type: 'text', text: contents.length > 1 ? `<${item.uri}>\n${item.text}` : item.text })
    } else if ('blob' in item && typeof item.blob === 'string') {
      if (item.mimeType !== undefined && IMAGE_TYPES.has(item.mimeType))
        blocks.push({
          type: 'image',
          source: { type: 'base64', mediaType: item.mimeType as 'image/png', data: item.blob },
        })
      else
        blocks.push({
          type: 'text',
          text: `[binary resource <${item.uri}>${item.mimeType ? ` ${item.mimeType}` : ''}, ${Math.floor((item.blob.length * 3) / 4)} bytes, not shown]`,
        })
    }
  }
  if (blocks.length === 0) blocks.push({ type: 'text', text: '(the resource is empty)' })
  return blocks
}
