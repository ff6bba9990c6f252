/** One SSE frame for the client, in OpenAI's framing (`event:` then `data:`, blank line); `json` is the data serialized. */
export function sseFrame(type: string, json: string): string {
  return `event: ${type}\ndata: ${json}\n\n`
}
