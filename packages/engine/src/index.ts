/**
 * @z-engine/engine: what an embedder needs — the engine and its sessions, `run()`, tools, the
 * permission callback and hook functions in code, custom model clients, and the protocol types that
 * cross the boundary. What else the repository's own apps use lives behind one small subpath per
 * purpose (`/settings`, `/mcp`, `/models`, … docs/embedding.md; unstable between versions).
 */

/** Protocol types an embedder meets: commands, events, approvals, questions, plans, settings. */
export type {
  ApprovalDecision,
  ApprovalRequest,
  Command,
  CommandOf,
  CommandType,
  ContentBlock,
  Cost,
  EngineEvent,
  EventEnvelope,
  EventOf,
  EventType,
  JsonSchema,
  Message,
  PermissionMode,
  PlanDecision,
  PlanProposal,
  QuestionAnswer,
  QuestionRequest,
  QuestionResponse,
  Settings,
  SettingsLayer,
  ToolStatus,
  TurnOutcome,
  Usage,
} from '@z-engine/protocol'
/** The shapes `defineTool` takes and returns. */
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
/** Tools in code: a tool from a name, description, input schema and `execute`. */
export { defineTool, ToolDefinitionError } from './api/define-tool.js'
/** The process-wide engine that opens sessions, and its typed failure. */
export { Engine } from './api/engine.js'
/** Options of `Engine.create` and `engine.openSession`. */
export type { EngineOptions, OpenSessionOptions } from './api/engine-options.js'
export { EngineError } from './api/engine-options.js'
/** Options of `run` and its approval, question and plan answerers. */
export type { OnApproval, OnPlan, OnQuestion, RunOptions } from './api/run.js'
/** One call, one turn: opens an engine and a session, runs a prompt, shuts down. */
export { run } from './api/run.js'
/** A system prompt given in code (replacing or extending the base prompt). */
export type { SystemPromptOption } from './assembly/system-prompt.js'
/** The permission callback that sees every call after hooks and policy. */
export type { CanUseTool, ToolPermissionRequest, ToolPermissionResult } from './batch/can-use-tool.js'
/** An in-process MCP server given to `openSession` (`mcpServers`). */
export type { InProcessMcpServer } from './mcp/mcp-manager.js'
/** Custom model clients: the factory an engine takes, what it returns, and the built-in factory's options. */
export type {
  ClientFactory,
  ClientRequester,
  CreateClientResult,
  DefaultClientFactoryOptions,
  ProviderSettings,
} from './model/client-factory.js'
/** The built-in factory (providers from settings and environment), for a factory that delegates to it. */
export { createDefaultClientFactory } from './model/client-factory.js'
/** Retry policy of the built-in clients. */
export type { RetryOptions } from './model/retry.js'
/** The model port a custom client implements. */
export type {
  MessageEndEvent,
  ModelClient,
  ModelError,
  ModelErrorKind,
  ModelRequest,
  ProviderName,
  ReasoningOptions,
  StopReason,
  StreamEvent,
  SystemSection,
  ToolCallEndEvent,
  ToolCallError,
} from './model/types.js'
/** Why a session closed, as SessionEnd hooks receive it. */
export type { SessionEndReason } from './session/services.js'
/** A session as an embedder holds it: commands in, events out. */
export type { Session, SubmitAttachments } from './session/session-types.js'
/** The handle of a submitted turn: iterate its events or await its result. */
export type { TurnHandle, TurnResult } from './session/turn-handle.js'
/** A subagent defined in code (`openSession`'s `agents`). */
export type { CodeAgentDefinition } from './workspace/definitions/code-agents.js'
/** The folders an engine reads and writes. */
export type { EnginePaths } from './workspace/engine-paths.js'
/** Hook functions, alongside the settings' shell hooks. */
export type {
  HookCallback,
  HookCallbackMatcher,
  HookCallbackOutput,
  HookCallbacks,
} from './workspace/hooks/hook-callbacks.js'
/** Hook event names and what a hook receives. */
export type { HookEvent, HookInput } from './workspace/hooks/types.js'
/** The project a folder belongs to (its repository root, or the nearest `.z-engine/`), as the CLI finds it. */
export { findProjectRoot } from './workspace/project-root.js'
