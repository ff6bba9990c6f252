/**
 * What the repository's own apps read from a session this process opened beyond the embedding
 * API (exported through `@z-engine/engine/session-access` only): the chat's MCP completions, and the
 * checkpoint work a headless run waits for before a turn's last line.
 */
import type { McpResourceEntry } from '../mcp/mcp-manager.js'
import type { Session } from '../session/session-types.js'
import type { McpPromptCommand } from '../workspace/commands/catalog.js'
import { viewOf } from './engine.js'

/** The prompts (`/mcp__<server>__<prompt>`) and resources (`@server:uri`) a session's ready MCP servers offer now. */
export function mcpCompletionsOf(session: Session): {
  prompts(): McpPromptCommand[]
  resources(signal: AbortSignal): Promise<McpResourceEntry[]>
} {
  const view = viewOf(session)
  return { prompts: () => view.mcpPrompts(), resources: (signal) => view.mcpResources(signal) }
}

/**
 * Resolves once the checkpoint work a session started so far is done and its `checkpointCreated`
 * records are published (a read-only turn's checkpoint may finish after its `turnFinished`).
 */
export function checkpointWorkOf(session: Session): Promise<void> {
  return viewOf(session).checkpointWork()
}
