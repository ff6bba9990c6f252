/** One SSE frame for the client, in OpenAI's framing (`event:` then `data:`, blank line). */
export function sseFrame(type: string, data: unknown): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`
}
