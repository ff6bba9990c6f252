import { isObject, type JsonObject } from '../wire/json.js'
import { decodeSearchContent } from './search-content.js'

/** The model-facing text of a result block a client sent back in an assistant turn. */
export function resultBlockText(block: JsonObject): string {
  const content = block.content
  if (block.type === 'web_search_tool_result') {
    if (!Array.isArray(content))
      return `Error (${isObject(content) ? String(content.error_code ?? 'unavailable') : 'unavailable'}): the search failed.`
    return content
      .filter(isObject)
      .map((hit, index) => {
        const snippet = decodeSearchContent(hit.encrypted_content)
        return `${index + 1}. ${String(hit.title ?? '')} — ${String(hit.url ?? '')}${snippet ? `\n   ${snippet}` : ''}`
      })
      .join('\n')
  }
  if (block.type === 'web_fetch_tool_result') {
    if (!isObject(content) || content.type !== 'web_fetch_result')
      return `Error (${isObject(content) ? String(content.error_code ?? 'unavailable') : 'unavailable'}): the fetch failed.`
    const document = isObject(content.content) ? content.content : {}
    const source = isObject(document.source) ? document.source : {}
    const title = typeof document.title === 'string' ? `\nTitle: ${document.title}` : ''
    return `URL: ${String(content.url ?? '')}${title}\n\n${String(source.data ?? '')}`
  }
  if (Array.isArray(content))
    return content
      .filter(isObject)
      .map((part) => (part.type === 'text' ? String(part.text ?? '') : JSON.stringify(part)))
      .join('\n')
  return typeof content === 'string' ? content : ''
}
