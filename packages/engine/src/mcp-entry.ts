/**
 * @z-engine/engine/mcp: probing and resolving MCP servers (`z-engine mcp`), one server connection (the gateway's `mcp` tools), and what a ready server lists. For the repository's own apps (the CLI, the gateway); unstable: names
 * and shapes may change between minor versions. An embedder uses `@z-engine/engine`.
 */

/** One resource a ready MCP server lists. */
export type { McpResourceEntry } from './mcp/mcp-manager.js'
/** Connects to every configured MCP server once and reports (`z-engine mcp list`). */
export { probeMcpServers } from './mcp/probe.js'
/** One MCP server over the SDK client (the gateway's `mcp` tools connect through it). */
export { McpConnection } from './mcp/server-connection.js'
/** How long a server may take to start when its settings say nothing; resolves `[mcp.servers]` into launchable specs (transport, `${VAR}` expansion) and their problems. */
export { DEFAULT_MCP_START_TIMEOUT_MS, resolveServerSpecs } from './mcp/server-spec.js'
/** Names of the MCP servers project layers define that an untrusted workspace withholds. */
export { withheldServers } from './mcp/session-mcp.js'
