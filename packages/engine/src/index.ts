export type { CatalogEntry, CommandCatalog, CommandResolution, McpPromptCommand } from './commands/catalog.js'
export { buildCommandCatalog, resolveCommand } from './commands/catalog.js'
export type { EngineBuiltinName } from './commands/engine-builtins.js'
export { ENGINE_BUILTIN_COMMANDS } from './commands/engine-builtins.js'
export type { ExpandCommandDeps, ExpandedCommand } from './commands/expand.js'
export { expandCommand } from './commands/expand.js'
export type { McpPromptArguments } from './commands/mcp-prompt-arguments.js'
export { mapMcpPromptArguments } from './commands/mcp-prompt-arguments.js'
export type {
  CompletePrompt,
  InstructionDiscoveryOptions,
  LoadedInstructions,
  LoadedRules,
  MemoryTarget,
  RelieveInput,
  RelieveResult,
  RepoMapBuild,
  RepoMapBuildInput,
  RepoMapServiceOptions,
  SummaryJobInput,
  SummaryJobResult,
} from './context/index.js'
export {
  appendMemoryNote,
  buildRepoMap,
  loadInstructions,
  loadNestedInstructions,
  loadRules,
  memoryFile,
  RepoMapService,
  relieveContext,
  runSummaryJob,
} from './context/index.js'
export {
  loadAgentDefinitions,
  loadCommandDefinitions,
  loadSkillDefinitions,
} from './definitions/load.js'
export type {
  AgentDefinition,
  CommandDefinition,
  DefinitionIssue,
  DefinitionLayer,
  DefinitionRoots,
  DefinitionSource,
  LoadedDefinitions,
  SkillDefinition,
} from './definitions/types.js'
export type { EngineOptions, OpenSessionOptions } from './engine/engine.js'
export { Engine, EngineError } from './engine/engine.js'
export { DEFAULT_MODEL_REF, modelRefFromSettings, providerSettingsOf } from './engine/model-port.js'
export type { EnginePaths } from './engine/paths.js'
export type { RunOptions } from './engine/run.js'
export { run } from './engine/run.js'
export type { RunHooksOptions } from './hooks/run-hooks.js'
export { runHooks } from './hooks/run-hooks.js'
export type {
  HookCommand,
  HookEvent,
  HookInput,
  HookOutcome,
  HookRunResult,
  HookRunStatus,
  HooksConfig,
} from './hooks/types.js'
export type { ShellJobsOptions } from './jobs/shell-jobs.js'
export { ShellJobs, toJobInfo } from './jobs/shell-jobs.js'
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
export type { PermissionCheckRequest, PermissionCheckResult } from './permissions/check-permission.js'
export { checkPermission } from './permissions/check-permission.js'
export type { SessionExtensions, SessionLimits } from './session/session.js'
export { Session } from './session/session.js'
export type { SettingsLayerName, SettingsNotice } from './settings/layers.js'
export type { LoadedSettings, LoadSettingsOptions } from './settings/load-settings.js'
export { loadSettings } from './settings/load-settings.js'
export type { SettingExplanation, SettingSource } from './settings/merge.js'
export type { SessionSettings, SettingsSourceOptions } from './settings/open-settings.js'
export { readSettings, watchSettings } from './settings/open-settings.js'
export { defaultConfigDir } from './settings/paths.js'
export type { PersistResult } from './settings/persist.js'
export { persistAdditionalDirectory, persistAllowRule } from './settings/persist.js'
export type { TrustStore } from './settings/trust-store.js'
export { createTrustStore } from './settings/trust-store.js'
export type { Disposable } from './settings/watch.js'
