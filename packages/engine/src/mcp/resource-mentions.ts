import type { ContentBlock } from '@z-engine/protocol'
import type { ToolResult } from '@z-engine/tools'

/** Largest text of one mentioned resource attached to a prompt (as for `@path` files). */
export const MAX_MENTION_CHARS = 256 * 1024

// `@server:scheme:…` at the start or after whitespace/`(`: a server name, then a URI with a scheme
// (`@everything:demo://resource/1`, `@github:issue://123`). Trailing sentence punctuation is not part of it.
const MENTION = /(?:^|[\s(])@([A-Za-z0-9_-]+):([a-zA-Z][a-zA-Z0-9+.-]*:[^\s`'"<>()]+)/g

/** One `@server:uri` mention in a prompt. */
export interface ResourceMention {
  server: string
  uri: string
}

/** The `@server:uri` mentions of a prompt, in order, each once. */
export function findResourceMentions(text: string): ResourceMention[] {
  const found: ResourceMention[] = []
  for (const match of text.matchAll(MENTION)) {
    const server = match[1]!
    const uri = match[2]!.replace(/[.,;:!?]+$/, '')
    if (!found.some((mention) => mention.server === server && mention.uri === uri))
      found.push({ server, uri })
  }
  return found
}

/** What attaching mentions needs from the session. */
export interface MentionDeps {
  /** Configured MCP server names. */
  servers(): readonly string[]
  /** Whether the rules deny reading a resource of this server (`mcp__*`, `mcp__server`). */
  denied(server: string): boolean
  read(server: string, uri: string, signal: AbortSignal): Promise<ToolResult>
}

/**
 * Reads each `@server:uri` resource a user prompt mentions (as Claude Code does) into blocks for the
 * opening message: text inside `<mcp-resource server=… uri=…>`, images as images. A server that does
 * not exist, a rule that denies it, or a failed read gives a notice, and the prompt goes out anyway.
 */
export async function attachResourceMentions(
  text: string,
  deps: MentionDeps,
  signal: AbortSignal,
): Promise<{ blocks: ContentBlock[]; notices: string[] }> {
  const blocks: ContentBlock[] = []
  const notices: string[] = []
  const servers = deps.servers()
  for (const { server, uri } of findResourceMentions(text)) {
    const label = `@${server}:${uri}`
    if (!servers.includes(server)) {
      notices.push(
        `${label} was not attached: there is no MCP server named ${server}${servers.length > 0 ? ` (servers: ${servers.join(', ')})` : ''}.`,
      )
      continue
    }
    if (deps.denied(server)) {
      notices.push(`${label} was not attached: the permission rules deny MCP server ${server}.`)
      continue
    }
    let result: ToolResult
    try {
      result = await deps.read(server, uri, signal)
    } catch (error) {
      result = { ok: false, error: { code: 'mcp_read_failed', message: (error as Error).message } }
    }
    if (!result.ok) {
      notices.push(`${label} was not attached: ${result.error.message}.`)
      continue
    }
    const texts: string[] = []
    for (const item of result.output.content) {
      if (item.type === 'text') texts.push(item.text)
      else blocks.push(item)
    }
    let body = texts.join('\n')
    if (body.length > MAX_MENTION_CHARS) {
      notices.push(`${label} is ${body.length} characters; only the first ${MAX_MENTION_CHARS} are attached.`)
      body = body.slice(0, MAX_MENTION_CHARS)
    }
    if (body !== '' || texts.length > 0)
      blocks.push({
        type: 'text',
        text: `<mcp-resource server="${server}" uri="${uri.replace(/"/g, '&quot;')}">\n${body}\n</mcp-resource>`,
      })
  }
  return { blocks, notices }
}
