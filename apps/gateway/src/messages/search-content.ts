/**
 * A web_search_result's `encrypted_content`: opaque to the client, read back by this gateway when
 * the client returns the assistant turn (a versioned base64url of the result's excerpt).
 */
const PREFIX = 'zgws1.'

/** Encodes an excerpt. */
export function encodeSearchContent(snippet: string): string {
  return `${PREFIX}${Buffer.from(snippet, 'utf8').toString('base64url')}`
}

/** The excerpt inside content this gateway produced; empty for anything else. */
export function decodeSearchContent(content: unknown): string {
  if (typeof content !== 'string' || !content.startsWith(PREFIX)) return ''
  return Buffer.from(content.slice(PREFIX.length), 'base64url').toString('utf8')
}
