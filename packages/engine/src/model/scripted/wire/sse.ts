/** Server-sent event framing as the providers write it: `event:` (optional), one `data:` line, a blank line. */

/** One SSE frame; `data` objects are JSON-encoded on a single line. */
export function sseFrame(event: string | undefined, data: unknown): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data)
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${payload}\n\n`
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
