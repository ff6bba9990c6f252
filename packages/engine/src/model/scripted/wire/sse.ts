/**
 * Server-sent event framing as the providers write it: `event:` (optional), one `data:` line, a blank
 * line. Every scripted wire frames through here, so the framing rules live in one place.
 */

/**
 * One SSE frame; `data` objects are JSON-encoded on a single line. `newline` is `\n` (Anthropic,
 * OpenAI) or `\r\n` (Google's servers), both legal line ends for SSE clients.
 */
export function sseFrame(event: string | undefined, data: unknown, newline: '\n' | '\r\n' = '\n'): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data)
  return `${event === undefined ? '' : `event: ${event}${newline}`}data: ${payload}${newline}${newline}`
}

/** Options shared by the wire encoders. */
export interface EncodeOptions {
  /** The model id echoed in responses. */
  model: string
  /** Characters per streamed text or thinking delta (default 16). */
  textChunkSize?: number
  /** Characters per streamed tool-argument delta (default 7, so arguments split across many chunks). */
  argsChunkSize?: number
}
