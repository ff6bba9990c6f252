/**
 * @z-engine/engine/internal: the parts the repository's own apps (the CLI, the gateway) use beyond
 * the embedding API — settings and definition loaders, command expansion, hooks runners, model
 * clients and catalog, MCP probing, the repository map. Unstable: names and shapes change between
 * versions without notice; an embedder uses `@z-engine/engine`.
 */

/** The note of a chat's `# note` line, or null (a `## heading` is not one). */
export { parseMemoryNote } from '@z-engine/context'
/** Web search backends (Brave, Tavily, SearXNG) and WebFetch's page-as-text reader, for the gateway. */
export type {
  FetchWebTextFailure,
  FetchWebTextOptions,
  FetchWebTextResult,
  SearchBackendConfig,
  WebSearchBackend,
  WebSearchHit,
} from '@z-engine/tools'
/** The search backend factory, the backend names, and one page as text with WebFetch's address checks. */
export { createSearchBackend, fetchWebText, SEARCH_BACKENDS } from '@z-engine/tools'
/** The feedback a call gets when `run` had no approver. */
export { NO_APPROVER_FEEDBACK } from './api/run.js'
/** A session's MCP completions and its pending checkpoint work, for the CLI. */
export { checkpointWorkOf, mcpCompletionsOf } from './api/session-access.js'
/** The model reference in effect by default, and readers of the model settings. */
export { DEFAULT_MODEL_REF, modelRefFromSettings, providerSettingsOf } from './assembly/model-port.js'
/** Which sandbox backend the shell would use here. */
export { detectShellSandbox } from './assembly/session-sandbox.js'
/** Prompt-command expansion outside a session (`z-engine commands expand`). */
export type { StandaloneExpansion } from './assembly/standalone-expansion.js'
/** Opens what command expansion needs without a session. */
export { openStandaloneExpansion } from './assembly/standalone-expansion.js'
/** Runs one event's hooks outside a session as a session runs them, confined (`z-engine hooks test`). */
export { runHooksStandalone } from './assembly/standalone-hooks.js'
/** A user `!` command's result. */
export type { UserShellResult } from './assembly/user-shell.js'
/** Runs a user `!` command. */
export { runUserShell } from './assembly/user-shell.js'
/** The Claude Agent SDK's (and `claude -p` stream-json's) init message. */
export { sdkInitMessage } from './claude-agent-sdk/sdk-init.js'
/** Engine events as Claude Agent SDK messages (assistant, user, stream_event, result), and the usage spelling. */
export { MessageTranslator, sdkUsage } from './claude-agent-sdk/sdk-messages.js'
/** The Claude Agent SDK message shapes `MessageTranslator` produces. */
export type {
  SDKMessage,
  SDKPermissionDenial,
  SDKResultMessage,
  SDKSystemMessage,
} from './claude-agent-sdk/sdk-types.js'
/** A permission rule in Claude Code's tool names as the engine's (`Task(…)` → `Agent(…)`). */
export { engineRule } from './claude-agent-sdk/tool-names.js'
/** The summary job of compaction. */
export type { CompletePrompt, SummaryJobInput, SummaryJobResult } from './compaction/compaction-job.js'
/** Runs a summary job. */
export { runSummaryJob } from './compaction/compaction-job.js'
/** Context pressure relief. */
export type { RelieveInput, RelieveResult } from './compaction/relieve.js'
/** Relieves context pressure (clears, then summaries). */
export { relieveContext } from './compaction/relieve.js'
/** What `checkPermission` answers. */
export type { PermissionCheckResult, ProjectRules } from './gate/check-permission.js'
/** The policy's verdict on one call outside a session (`z-engine permissions check`), and a project's rules for it. */
export { checkPermission, projectRulesOf } from './gate/check-permission.js'
/** The permission gate built from settings. */
export { settingsGate } from './gate/policy-gate.js'
/** Background shell jobs. */
export type { ShellJobsOptions } from './jobs/shell-jobs.js'
/** The background job table and its event view. */
export { ShellJobs, toJobInfo } from './jobs/shell-jobs.js'
/** One resource a ready MCP server lists. */
export type { McpResourceEntry } from './mcp/mcp-manager.js'
/** MCP servers of a session. */
export { MCP_DEFER_THRESHOLD, McpManager } from './mcp/mcp-manager.js'
/** What probing the configured MCP servers found. */
export type { McpProbe } from './mcp/probe.js'
/** Connects to every configured MCP server once and reports (`z-engine mcp list`). */
export { probeMcpServers } from './mcp/probe.js'
/** One MCP server's state. */
export type { McpServerInfo, McpServerStatus } from './mcp/server-connection.js'
/** One MCP server over the SDK client (the gateway's `mcp` tools connect through it). */
export { McpConnection } from './mcp/server-connection.js'
/** A server ready to connect (transport, URL or command, timeout). */
/** A server entry that cannot start as configured (or starts with unset variables), with a stable code. */
export type { McpServerSpec, McpSpecProblem, McpSpecProblemCode } from './mcp/server-spec.js'
/** How long a server may take to start and list its tools when its settings say nothing. */
/** Resolves `[mcp.servers]` into launchable specs (transport, `${VAR}` expansion) and their problems. */
export { DEFAULT_MCP_START_TIMEOUT_MS, resolveServerSpecs } from './mcp/server-spec.js'
/** Names of the MCP servers project layers define that an untrusted workspace withholds. */
export { withheldServers } from './mcp/session-mcp.js'
/** One of Claude Code's model aliases. */
export type { ModelAlias } from './model/aliases.js'
/** Claude Code's model aliases (`opus`, `sonnet`, `haiku`, `opusplan`, `default`) and their resolution. */
export { canonicalModelId, MODEL_ALIASES, modelAliasNames, resolveModelAlias } from './model/aliases.js'
/** Options of the Anthropic client. */
export type { AnthropicClientOptions } from './model/anthropic/client.js'
/** The Anthropic Messages client. */
export { createAnthropicClient } from './model/anthropic/client.js'
/** The model catalog's entries. */
export type { ModelInfo, ModelOverrides, ModelPrices } from './model/catalog.js'
/** Model catalog lookups and the limits of unknown models. */
export {
  catalogModelIds,
  findModel,
  resolveModelInfo,
  UNKNOWN_CONTEXT_WINDOW,
  UNKNOWN_MAX_OUTPUT_TOKENS,
} from './model/catalog.js'
/** Collects a stream into one result. */
export { collectStream } from './model/collect.js'
/** Cost and prompt-token arithmetic. */
export { costOf, promptTokensOf } from './model/cost.js'
/** Classifies model errors. */
export { isContextOverflowText, isRetryable } from './model/errors.js'
/** Options of the Gemini client. */
export type { GeminiClientOptions } from './model/gemini/client.js'
/** The Gemini API client (`@google/genai`). */
export { createGeminiClient } from './model/gemini/client.js'
/** A parsed model reference. */
export type { ModelRef, ParseModelRefResult } from './model/model-ref.js'
/** Model reference parsing and formatting. */
export { formatModelRef, parseModelRef } from './model/model-ref.js'
/** Options of the Chat Completions client. */
export type { ChatClientOptions } from './model/openai-chat/client.js'
/** The Chat Completions client. */
export { createChatClient } from './model/openai-chat/client.js'
/** Chat Completions dialects. */
export type { ChatDialect } from './model/openai-chat/request.js'
/** Options of the Responses client. */
export type { ResponsesClientOptions } from './model/openai-responses/client.js'
/** The OpenAI Responses client. */
export { createResponsesClient } from './model/openai-responses/client.js'
/** The Responses and Chat Completions spellings of a tool choice (one mapping for engine and gateway). */
export { chatToolChoice, responsesToolChoice } from './model/tool-choice.js'
/** The result of collecting a stream, and stream event tags. */
export type { ModelResult, StreamEventType } from './model/types.js'
/** Repository map builds. */
export type { RepoMapBuild, RepoMapBuildInput } from './repo-map/repo-map-build.js'
/** Builds a repository map. */
export { buildRepoMap } from './repo-map/repo-map-build.js'
/** Options of the repository map service. */
export type { RepoMapServiceOptions } from './repo-map/repo-map-service.js'
/** The repository map service of a session. */
export { RepoMapService } from './repo-map/repo-map-service.js'
/** Where a repository map is cached. */
export { repoMapCacheFile } from './repo-map/repo-map-store.js'
/** A permission mode in Claude Code's spelling (a hook's `permission_mode`). */
export { claudePermissionMode } from './session/hook-port.js'
/** The command catalog (`/` commands). */
export type {
  CatalogEntry,
  CommandCatalog,
  CommandResolution,
  McpPromptCommand,
} from './workspace/commands/catalog.js'
/** Builds the command catalog and resolves a command in it. */
export { buildCommandCatalog, resolveCommand } from './workspace/commands/catalog.js'
/** The engine's built-in commands. */
export type { EngineBuiltinName } from './workspace/commands/engine-builtins.js'
/** The engine's built-in commands with their descriptions. */
export { ENGINE_BUILTIN_COMMANDS } from './workspace/commands/engine-builtins.js'
/** Prompt-command expansion. */
export type { ExpandCommandDeps, ExpandedCommand } from './workspace/commands/expand.js'
/** Expands a prompt command. */
export { expandCommand } from './workspace/commands/expand.js'
/** MCP prompt arguments. */
export type { McpPromptArguments } from './workspace/commands/mcp-prompt-arguments.js'
/** Maps a command's arguments to an MCP prompt's. */
export { mapMcpPromptArguments } from './workspace/commands/mcp-prompt-arguments.js'
/** Loaders of agent, command and skill definitions. */
export {
  loadAgentDefinitions,
  loadCommandDefinitions,
  loadSkillDefinitions,
} from './workspace/definitions/load.js'
/** Definitions and what loading them found. */
export type {
  AgentDefinition,
  CommandDefinition,
  DefinitionIssue,
  DefinitionIssueCode,
  DefinitionLayer,
  DefinitionRoots,
  DefinitionSource,
  DefinitionWarning,
  LoadedDefinitions,
  PluginDefinitionSource,
  SkillDefinition,
} from './workspace/definitions/types.js'
/** Claude Code's hook events and what a session does with each (matcher field, when it fires). */
export {
  HOOK_EVENT_TABLE,
  type HookEventFiring,
  type HookEventSpec,
  neverFiredReason,
} from './workspace/hooks/events.js'
/** How a hook matcher is read (exact, list, regex), for `hooks list`. */
export { type MatcherKind, matcherKind } from './workspace/hooks/matcher.js'
/** The JSON a hook reads on stdin, for `hooks test`. */
export { hookPayload } from './workspace/hooks/payload.js'
/** Options of the hook runner. */
export type { RunHooksOptions } from './workspace/hooks/run-hooks.js'
/** Runs the settings' shell hooks of one event (`z-engine hooks test`). */
export { runHooks } from './workspace/hooks/run-hooks.js'
/** Shell hook configuration and results. */
export type {
  HookCommand,
  HookOutcome,
  HookRunResult,
  HookRunStatus,
  HooksConfig,
} from './workspace/hooks/types.js'
/** A hook's timeout when it sets none, by event. */
export { defaultHookTimeoutSecs } from './workspace/hooks/types.js'
/** Instruction discovery. */
export type {
  InstructionDiscoveryOptions,
  LoadedInstructions,
} from './workspace/instructions/instructions-load.js'
/** Loads AGENTS.md/CLAUDE.md instructions. */
export { loadInstructions, loadNestedInstructions } from './workspace/instructions/instructions-load.js'
/** Where a memory note goes. */
export type { MemoryTarget } from './workspace/instructions/memory.js'
/** Appends a memory note. */
export { appendMemoryNote, memoryFile } from './workspace/instructions/memory.js'
/** Loaded path rules. */
export type { LoadedRules } from './workspace/instructions/rules-load.js'
/** Loads path rules. */
export { loadRules } from './workspace/instructions/rules-load.js'
/** An enabled plugin and the definition sources it adds. */
export type { ActivePlugin } from './workspace/plugins/active.js'
/** The definition sources of the enabled plugins. */
export { pluginDefinitionSources } from './workspace/plugins/active.js'
/** Installed plugins as `plugin list` shows them, and a staged install. */
export type { PluginListing, PluginSummary, StagedPlugin } from './workspace/plugins/install.js'
/** Installs (staged, then committed with consent), lists, enables and removes plugins. */
export {
  listInstalledPlugins,
  setPluginEnabled,
  stagePluginInstall,
  uninstallPlugin,
} from './workspace/plugins/install.js'
/** Marketplaces as `plugin marketplace list` shows them, plugin folders, and results. */
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
/** The plugin registry's records. */
export type { InstalledPlugin, KnownMarketplace } from './workspace/plugins/registry.js'
/** What a plugin adds, one line each (shown before installing). */
export { pluginSummaryLines } from './workspace/plugins/summary-lines.js'
/** The environment child processes get. */
export { childEnvironmentFor } from './workspace/settings/child-environment.js'
/** Claude Code's MCP scopes in `~/.claude.json` (`user`, `local`). */
export type { ClaudeJsonScope } from './workspace/settings/claude-json.js'
/** One scope's servers in `~/.claude.json`, and a copy with them replaced (`z-engine mcp add -s user|local`). */
export { claudeJsonServers, withClaudeJsonServers } from './workspace/settings/claude-json.js'
/** Reads `~/.claude.json` whole, and changes it under Claude Code's lock, atomically, keeping its mode. */
export { readClaudeJson, updateClaudeJson } from './workspace/settings/claude-json-file.js'
/** A Claude Code settings file's text as a settings layer (`claude -p --settings`). */
export { parseClaudeLayer } from './workspace/settings/claude-layer.js'
/** Settings layers and notices. */
export type { SettingsLayerName, SettingsNotice } from './workspace/settings/layers.js'
/** Effective settings with their layers. */
export type { LoadedSettings, LoadSettingsOptions } from './workspace/settings/load-settings.js'
/** Loads the effective settings. */
export { loadSettings } from './workspace/settings/load-settings.js'
/** A `.mcp.json` text (Claude Code's `mcpServers` format) as a settings layer (`claude -p --mcp-config`). */
export { parseMcpJsonLayer } from './workspace/settings/mcp-json-layer.js'
/** Where a setting came from. */
export type { SettingExplanation, SettingSource } from './workspace/settings/merge.js'
/** A session's settings source. */
export type { SessionSettings, SettingsSourceOptions } from './workspace/settings/open-settings.js'
/** Reads and watches settings. */
export { readSettings, watchSettings } from './workspace/settings/open-settings.js'
/** The user's config folder, Claude Code's `.claude.json`, and the user's own settings for one project. */
export { claudeJsonFile, defaultConfigDir, userProjectSettingsFile } from './workspace/settings/paths.js'
/** What persisting a setting did. */
export type { PersistResult } from './workspace/settings/persist.js'
/** Persists an added directory or an allow rule. */
export {
  persistAdditionalDirectory,
  persistAllowRule,
  persistUserProjectAllowRule,
} from './workspace/settings/persist.js'
/** The workspace trust store. */
export type { TrustStore } from './workspace/settings/trust-store.js'
/** Opens the trust store. */
export { createTrustStore } from './workspace/settings/trust-store.js'
/** Something to dispose. */
export type { Disposable } from './workspace/settings/watch.js'
