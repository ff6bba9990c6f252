/** Web search backends (Brave, Tavily, SearXNG) as WebSearch uses them; the gateway's web_search runs on them. */
/** One page as text with WebFetch's address checks; the gateway's web_fetch runs on it. */
export type {
  FetchWebTextFailure,
  FetchWebTextOptions,
  FetchWebTextResult,
  SearchBackendConfig,
  WebSearchBackend,
  WebSearchHit,
} from '@z-engine/tools'
export { createSearchBackend, fetchWebText, SEARCH_BACKENDS } from '@z-engine/tools'
export type {
  DefinedTool,
  StandardJsonSchema,
  StandardResult,
  ToolActionDescription,
  ToolExecuteContext,
  ToolExecuteResult,
  ToolInputOf,
  ToolInputSchema,
  ToolSpec,
} from './api/define-tool.js'
export { defineTool, ToolDefinitionError } from './api/define-tool.js'
export type { EngineOptions, OpenSessionOptions } from './api/engine.js'
export { Engine, EngineError } from './api/engine.js'
export type { EnginePaths } from './api/engine-paths.js'
export type { OnApproval, OnPlan, OnQuestion, RunOptions } from './api/run.js'
export { NO_APPROVER_FEEDBACK, run } from './api/run.js'
export { DEFAULT_MODEL_REF, modelRefFromSettings, providerSettingsOf } from './assembly/model-port.js'
export { detectShellSandbox } from './assembly/session-sandbox.js'
export type { StandaloneExpansion } from './assembly/standalone-expansion.js'
export { openStandaloneExpansion } from './assembly/standalone-expansion.js'
export { childEnvironmentFor } from './assembly/tool-context.js'
export type { UserShellResult } from './assembly/user-shell.js'
export { runUserShell } from './assembly/user-shell.js'
export type { CanUseTool, ToolPermissionRequest, ToolPermissionResult } from './batch/can-use-tool.js'
export type { CompletePrompt, SummaryJobInput, SummaryJobResult } from './compaction/compaction-job.js'
export { runSummaryJob } from './compaction/compaction-job.js'
export type { RelieveInput, RelieveResult } from './compaction/relieve.js'
export { relieveContext } from './compaction/relieve.js'
export type { PermissionCheckResult } from './gate/check-permission.js'
export { checkPermission } from './gate/check-permission.js'
export { settingsGate } from './gate/policy-gate.js'
export type { ShellJobsOptions } from './jobs/shell-jobs.js'
export { ShellJobs, toJobInfo } from './jobs/shell-jobs.js'
export type { InProcessMcpServer } from './mcp/mcp-manager.js'
export { MCP_DEFER_THRESHOLD, McpManager } from './mcp/mcp-manager.js'
export type { McpProbe } from './mcp/probe.js'
export { probeMcpServers } from './mcp/probe.js'
export type { McpServerInfo, McpServerStatus } from './mcp/server-connection.js'
export type { AnthropicClientOptions } from './model/anthropic/client.js'
export { createAnthropicClient } from './model/anthropic/client.js'
export type { ModelInfo, ModelOverrides, ModelPrices } from './model/catalog.js'
export {
  catalogModelIds,
  findModel,
  resolveModelInfo,
  UNKNOWN_CONTEXT_WINDOW,
  UNKNOWN_MAX_OUTPUT_TOKENS,
} from './model/catalog.js'
export type {
  ClientFactory,
  ClientRequester,
  CreateClientResult,
  DefaultClientFactoryOptions,
  ProviderSettings,
} from './model/client-factory.js'
export { createDefaultClientFactory } from './model/client-factory.js'
export { collectStream } from './model/collect.js'
export { costOf, promptTokensOf } from './model/cost.js'
export { isContextOverflowText, isRetryable } from './model/errors.js'
export type { ModelRef, ParseModelRefResult } from './model/model-ref.js'
export { formatModelRef, parseModelRef } from './model/model-ref.js'
export type { ChatClientOptions } from './model/openai-chat/client.js'
export { createChatClient } from './model/openai-chat/client.js'
export type { ChatDialect } from './model/openai-chat/request.js'
export type { ResponsesClientOptions } from './model/openai-responses/client.js'
export { createResponsesClient } from './model/openai-responses/client.js'
export type { RetryOptions } from './model/retry.js'
export type {
  MessageEndEvent,
  ModelClient,
  ModelError,
  ModelErrorKind,
  ModelRequest,
  ModelResult,
  ProviderName,
  ReasoningOptions,
  StopReason,
  StreamEvent,
  StreamEventType,
  SystemSection,
  ToolCallEndEvent,
  ToolCallError,
} from './model/types.js'
export type { RepoMapBuild, RepoMapBuildInput } from './repo-map/repo-map-build.js'
export { buildRepoMap } from './repo-map/repo-map-build.js'
export type { RepoMapServiceOptions } from './repo-map/repo-map-service.js'
export { RepoMapService } from './repo-map/repo-map-service.js'
export { repoMapCacheFile } from './repo-map/repo-map-store.js'
export type { Session, SubmitAttachments } from './session/session-types.js'
export type { TurnHandle, TurnResult } from './session/turn-handle.js'
export type {
  CatalogEntry,
  CommandCatalog,
  CommandResolution,
  McpPromptCommand,
} from './workspace/commands/catalog.js'
export { buildCommandCatalog, resolveCommand } from './workspace/commands/catalog.js'
export type { EngineBuiltinName } from './workspace/commands/engine-builtins.js'
export { ENGINE_BUILTIN_COMMANDS } from './workspace/commands/engine-builtins.js'
export type { ExpandCommandDeps, ExpandedCommand } from './workspace/commands/expand.js'
export { expandCommand } from './workspace/commands/expand.js'
export type { McpPromptArguments } from './workspace/commands/mcp-prompt-arguments.js'
export { mapMcpPromptArguments } from './workspace/commands/mcp-prompt-arguments.js'
export {
  loadAgentDefinitions,
  loadCommandDefinitions,
  loadSkillDefinitions,
} from './workspace/definitions/load.js'
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
export type {
  HookCallback,
  HookCallbackMatcher,
  HookCallbackOutput,
  HookCallbacks,
} from './workspace/hooks/hook-callbacks.js'
export type { RunHooksOptions } from './workspace/hooks/run-hooks.js'
export { runHooks } from './workspace/hooks/run-hooks.js'
export type {
  HookCommand,
  HookEvent,
  HookInput,
  HookOutcome,
  HookRunResult,
  HookRunStatus,
  HooksConfig,
} from './workspace/hooks/types.js'
export type {
  InstructionDiscoveryOptions,
  LoadedInstructions,
} from './workspace/instructions/instructions-load.js'
export { loadInstructions, loadNestedInstructions } from './workspace/instructions/instructions-load.js'
export type { MemoryTarget } from './workspace/instructions/memory.js'
export { appendMemoryNote, memoryFile } from './workspace/instructions/memory.js'
export type { LoadedRules } from './workspace/instructions/rules-load.js'
export { loadRules } from './workspace/instructions/rules-load.js'
export type { ActivePlugin } from './workspace/plugins/active.js'
export { pluginDefinitionSources } from './workspace/plugins/active.js'
export type { PluginListing, PluginSummary, StagedPlugin } from './workspace/plugins/install.js'
export {
  listInstalledPlugins,
  setPluginEnabled,
  stagePluginInstall,
  uninstallPlugin,
} from './workspace/plugins/install.js'
export type { MarketplaceListing, PluginPaths, PluginResult } from './workspace/plugins/marketplaces.js'
export {
  addMarketplace,
  listMarketplaces,
  removeMarketplace,
  updateMarketplaces,
} from './workspace/plugins/marketplaces.js'
export type { InstalledPlugin, KnownMarketplace } from './workspace/plugins/registry.js'
export type { SettingsLayerName, SettingsNotice } from './workspace/settings/layers.js'
export type { LoadedSettings, LoadSettingsOptions } from './workspace/settings/load-settings.js'
export { loadSettings } from './workspace/settings/load-settings.js'
export type { SettingExplanation, SettingSource } from './workspace/settings/merge.js'
export type { SessionSettings, SettingsSourceOptions } from './workspace/settings/open-settings.js'
export { readSettings, watchSettings } from './workspace/settings/open-settings.js'
export { defaultConfigDir } from './workspace/settings/paths.js'
export type { PersistResult } from './workspace/settings/persist.js'
export { persistAdditionalDirectory, persistAllowRule } from './workspace/settings/persist.js'
export type { TrustStore } from './workspace/settings/trust-store.js'
export { createTrustStore } from './workspace/settings/trust-store.js'
export type { Disposable } from './workspace/settings/watch.js'
