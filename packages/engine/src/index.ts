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
