/**
 * @z-engine/engine/settings: the settings layers the CLI reads and edits (`~/.claude.json`, Claude Code settings and `.mcp.json` as layers), the trust store, the environment child processes get, and `permissions check`. For the repository's own apps (the CLI, the gateway); unstable: names
 * and shapes may change between minor versions. An embedder uses `@z-engine/engine`.
 */

/** A permission rule in Claude Code's tool names as the engine's (`Task(…)` → `Agent(…)`). */
export { engineRule } from './claude-agent-sdk/tool-names.js'
/** A project's permission rules, as `checkPermission` reads them. */
export type { ProjectRules } from './gate/check-permission.js'
/** The policy's verdict on one call outside a session (`z-engine permissions check`), and a project's rules for it. */
export { checkPermission, projectRulesOf } from './gate/check-permission.js'
/** The environment child processes get. */
export { childEnvironmentFor } from './workspace/settings/child-environment.js'
/** One scope's servers in `~/.claude.json`, and a copy with them replaced (`z-engine mcp add -s user|local`). */
export { claudeJsonServers, withClaudeJsonServers } from './workspace/settings/claude-json.js'
/** Reads `~/.claude.json` whole, and changes it under Claude Code's lock, atomically, keeping its mode. */
export { readClaudeJson, updateClaudeJson } from './workspace/settings/claude-json-file.js'
/** A Claude Code settings file's text as a settings layer (`claude -p --settings`). */
export { parseClaudeLayer } from './workspace/settings/claude-layer.js'
/** Effective settings with their layers. */
export type { LoadedSettings } from './workspace/settings/load-settings.js'
/** A `.mcp.json` text (Claude Code's `mcpServers` format) as a settings layer (`claude -p --mcp-config`). */
export { parseMcpJsonLayer } from './workspace/settings/mcp-json-layer.js'
/** Where Claude Code's `~/.claude.json` is. */
export { claudeJsonFile } from './workspace/settings/paths.js'
/** Opens the trust store. */
export { createTrustStore } from './workspace/settings/trust-store.js'
