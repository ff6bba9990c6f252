/**
 * @z-engine/engine/internal: the parts the repository's own apps (the CLI, the gateway) use beyond
 * the embedding API — settings and definition loaders, command expansion, hooks runners, model
 * clients and catalog, MCP probing, the repository map. Unstable: names and shapes change between
 * versions without notice; an embedder uses `@z-engine/engine`.
 */

/** The note of a chat's `# note` line, or null (a `## heading` is not one). */
export { parseMemoryNote } from '@z-engine/context'
/** git in the user's repository with every program-running key neutralised (the CLI's file index). */
export { projectGit } from '@z-engine/host'
/** Web search backends (Brave, Tavily, SearXNG) and WebFetch's page-as-text reader, for the gateway. */
export type { FetchWebTextOptions, WebSearchBackend, WebSearchHit } from '@z-engine/tools'
/** The search backend factory, the backend names, and one page as text with WebFetch's address checks. */
export { createSearchBackend, fetchWebText, SEARCH_BACKENDS } from '@z-engine/tools'
/** A session's MCP completions and its pending checkpoint work, for the CLI. */
export { checkpointWorkOf, mcpCompletionsOf } from './api/session-access.js'
/** Readers of the model settings: the model reference in effect, and a provider's settings. */
export { modelRefFromSettings, providerSettingsOf } from './assembly/model-port.js'
/** Which sandbox backend the shell would use here. */
export { detectShellSandbox } from './assembly/session-sandbox.js'
/** Opens what command expansion needs without a session. */
export { openStandaloneExpansion } from './assembly/standalone-expansion.js'
/** Runs one event's hooks outside a session as a session runs them, confined (`z-engine hooks test`). */
export { runHooksStandalone } from './assembly/standalone-hooks.js'
/** The Claude Agent SDK's (and `claude -p` stream-json's) init message. */
export { sdkInitMessage } from './claude-agent-sdk/sdk-init.js'
/** The Claude Agent SDK message shapes `MessageTranslator` produces. */
export type { SDKMessage, SDKResultMessage } from './claude-agent-sdk/sdk-message-types.js'
/** Engine events as Claude Agent SDK messages (assistant, user, stream_event, result), and the usage spelling. */
export { MessageTranslator, sdkUsage } from './claude-agent-sdk/sdk-messages.js'
/** A permission rule in Claude Code's tool names as the engine's (`Task(…)` → `Agent(…)`). */
export { engineRule } from './claude-agent-sdk/tool-names.js'
/** A project's permission rules, as `checkPermission` reads them. */
export type { ProjectRules } from './gate/check-permission.js'
/** The policy's verdict on one call outside a session (`z-engine permissions check`), and a project's rules for it. */
export { checkPermission, projectRulesOf } from './gate/check-permission.js'
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
/** A model's limits and prices: the catalog's, with settings overrides. */
export { resolveModelInfo } from './model/catalog.js'
/** The prompt tokens a usage counts (input and cache). */
export { promptTokensOf } from './model/cost.js'
/** Parses a model reference (`provider:model`). */
export { parseModelRef } from './model/model-ref.js'
/** The Responses spelling of a tool choice (one mapping for engine and gateway). */
export { responsesToolChoice } from './model/tool-choice.js'
/** Builds a repository map. */
export { buildRepoMap } from './repo-map/repo-map-build.js'
/** A permission mode in Claude Code's spelling (a hook's `permission_mode`). */
export { claudePermissionMode } from './session/hook-port.js'
/** An entry of the command catalog (`/` commands), and an MCP prompt offered as one. */
export type { CatalogEntry, McpPromptCommand } from './workspace/commands/catalog.js'
/** Builds the command catalog and resolves a command in it. */
export { buildCommandCatalog, resolveCommand } from './workspace/commands/catalog.js'
/** Expands a prompt command. */
export { expandCommand } from './workspace/commands/expand.js'
/** Loaders of agent, command and skill definitions. */
export {
  loadAgentDefinitions,
  loadCommandDefinitions,
  loadSkillDefinitions,
} from './workspace/definitions/load.js'
/** Definitions and what loading them found. */
export type {
  DefinitionIssue,
  DefinitionLayer,
  DefinitionRoots,
  DefinitionWarning,
} from './workspace/definitions/types.js'
/** Claude Code's hook events and what a session does with each (matcher field, when it fires). */
export { HOOK_EVENT_TABLE } from './workspace/hooks/events.js'
/** How a hook matcher is read (exact, list, regex), for `hooks list`. */
export { matcherKind } from './workspace/hooks/matcher.js'
/** The JSON a hook reads on stdin, for `hooks test`. */
export { hookPayload } from './workspace/hooks/payload.js'
/** One shell hook's configuration. */
export type { HookCommand } from './workspace/hooks/types.js'
/** A hook's timeout when it sets none, by event. */
export { defaultHookTimeoutSecs } from './workspace/hooks/types.js'
/** Loads AGENTS.md/CLAUDE.md instructions. */
export { loadInstructions } from './workspace/instructions/instructions-load.js'
/** Loads path rules. */
export { loadRules } from './workspace/instructions/rules-load.js'
/** The definition sources of the enabled plugins. */
export { pluginDefinitionSources } from './workspace/plugins/active.js'
/** Installed plugins as `plugin list` shows them, and what one adds. */
export type { PluginListing, PluginSummary } from './workspace/plugins/install.js'
/** Installs (staged, then committed with consent), lists, enables and removes plugins. */
export {
  listInstalledPlugins,
  setPluginEnabled,
  stagePluginInstall,
  uninstallPlugin,
} from './workspace/plugins/install.js'
/** Marketplaces as `plugin marketplace list` shows them, a pinned ref, the plugin folders, and what a plugin operation returns. */
export type {
  MarketplaceListing,
  MarketplacePin,
  PluginPaths,
  PluginResult,
} from './workspace/plugins/marketplaces.js'
/** Adds, lists, removes and updates plugin marketplaces. */
export {
  addMarketplace,
  listMarketplaces,
  removeMarketplace,
  updateMarketplaces,
} from './workspace/plugins/marketplaces.js'
/** What a plugin adds, one line each (shown before installing). */
export { pluginSummaryLines } from './workspace/plugins/summary-lines.js'
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
