/**
 * @z-engine/engine/session-access: what a running session holds beyond the embedding API: its MCP completions and its pending checkpoint work. For the repository's own apps (the CLI, the gateway); unstable: names
 * and shapes may change between minor versions. An embedder uses `@z-engine/engine`.
 */

/** A session's MCP completions and its pending checkpoint work, for the CLI. */
export { checkpointWorkOf, mcpCompletionsOf } from './api/session-access.js'
