/** @z-engine/protocol: every type that crosses a boundary, its JSON Schema, and validators. */

/** Subagent, job, todo and check types (spec 000/003). */
export type { AgentInfo, AgentStatus, CheckRecord, JobInfo, TodoItem, WorktreeState } from './agent.js'
/** Schemas of the agent and job types. */
export { AgentInfoSchema, CheckRecordSchema, JobInfoSchema, TodoItemSchema, todoMarkdown } from './agent.js'
/** Commands a host sends into a session. */
export type { Command, CommandOf, CommandType } from './commands.js'
/** Command tags and schemas (one per `type`, and the union). */
export { COMMAND_TYPES, CommandSchema, CommandSchemas } from './commands.js'
/** Content blocks of messages. */
export type {
  ContentBlock,
  ContentBlockType,
  ImageBlock,
  ImageSource,
  RedactedThinkingBlock,
  TextBlock,
  ThinkingBlock,
  ToolResultBlock,
  ToolResultContent,
  ToolUseBlock,
} from './content.js'
/** Content block schemas. */
export { ContentBlockSchema, ToolResultContentSchema } from './content.js'
/** Advice shapes of the decision seams. */
export type {
  CompletionClaim,
  DecisionSeam,
  DecisionTrace,
  Route,
  Suggestion,
  TurnTone,
  Urgency,
} from './decisions.js'
/** The envelope every event is delivered in. */
export type { EventEnvelope } from './envelope.js'
/** Schema of the event envelope. */
export { EventEnvelopeSchema } from './envelope.js'
/** Events a session publishes. */
export type { EngineEvent, EventOf, EventType, NoticeLevel, RewindConflict, ToolProgress } from './events.js'
/** Event tags and schemas (one per `type`, and the union). */
export { EngineEventSchema, EVENT_TYPES, EventSchemas } from './events.js'
/** Checkpoints, rewinds, compaction markers and task views. */
export type { Checkpoint, CompactionMarker, CompactionTrigger, RewindScope, TaskView } from './history.js'
/** Every rewind scope. */
export { REWIND_SCOPES } from './history.js'
/** Questions and plan reviews. */
export type {
  PlanDecision,
  PlanProposal,
  Question,
  QuestionAnswer,
  QuestionOption,
  QuestionRequest,
  QuestionResponse,
} from './interaction.js'
/** Journal (log.jsonl) records: the header, and persisted events with id, time and scope. */
export type {
  LogHeader,
  LogRecord,
  LogRecordOf,
  LogRecordType,
  PersistedRecord,
  RecordStamp,
} from './log-records.js'
/** Journal format version, record tags and schemas. */
export {
  LOG_FORMAT_VERSION,
  LOG_RECORD_TYPES,
  LogRecordSchema,
  LogRecordSchemas,
  PERSISTED_EVENT_TYPES,
} from './log-records.js'
/** Provider-neutral messages and where a message came from. */
export type { Message, MessageOrigin, Role } from './message.js'
/** Schema of a message. */
export { MessageSchema } from './message.js'
/** Permission modes, approvals and suggested rules. */
export type {
  ApprovalDecision,
  ApprovalRequest,
  PermissionDecisionKind,
  PermissionMode,
  Preview,
  SuggestedRule,
} from './permission.js'
/** Modes, their aliases, and the mode reader for outside input. */
export {
  PERMISSION_MODE_ALIASES,
  PERMISSION_MODES,
  parsePermissionMode,
  suggestedRulesText,
} from './permission.js'
export type { PermissionCheckRequest } from './permission-check.js'
/** Schema of a `permissions check` request line. */
export { PermissionCheckRequestSchema } from './permission-check.js'
/** Which events are journaled, and which are only published. */
export type { LiveEvent, PersistedEvent, PersistedEventType } from './persisted-events.js'
/** The one rule of what is journaled. */
export { isPersistedEvent, isPersistedType } from './persisted-events.js'
/** File names that make a program run something unasked (protected by policy and sandbox). */
export { HOOK_CONFIG_FILE_NAMES, TOOL_CONFIG_FILE_NAMES, TOOLCHAIN_FILE_NAMES } from './protected-names.js'
/** Types of builder schemas, for code that validates against exported schemas. */
export type { Infer, Schema } from './schema/builder.js'
/** A configured hook command, the hook events and their default timeouts. */
export type { HookEntry } from './settings/hooks.js'
export { DEFAULT_HOOK_TIMEOUT_SECS, HOOK_EVENTS, USER_PROMPT_HOOK_TIMEOUT_SECS } from './settings/hooks.js'
/** One configured MCP server. */
export type { McpServerSettings } from './settings/server-sections.js'
/** One configured check. */
export type { CheckSettings } from './settings/tool-sections.js'
/** The settings shape: a file layer and the effective settings. */
export type { Settings, SettingsLayer } from './settings.js'
/** Settings defaults and the settings schema. */
export { DEFAULT_SETTINGS, SettingsSchema } from './settings.js'
/** Tool specs, tool choice and tool status. */
export type { JsonSchema, ToolChoice, ToolSpec, ToolStatus } from './tool-spec.js'
/** Tool status values and the tool spec schema. */
export { TOOL_STATUSES, ToolSpecSchema } from './tool-spec.js'
/** Turn outcomes and verification badges. */
export type { TurnOutcome, TurnSummary, VerificationBadge } from './turn.js'
/** Token usage and cost. */
export type { Cost, Usage } from './usage.js'
/** Usage and cost arithmetic. */
export { addCost, addUsage, ZERO_COST, ZERO_USAGE } from './usage.js'
/** Where and why an input failed validation. */
export type { ParseIssue } from './validate/format-error.js'
/** Results of the parsers. */
export type { ParseFailure, SettingsParseResult } from './validate/parse.js'
/** Parsers for what arrives from outside; they never throw. */
export {
  parseCommand,
  parseEnvelope,
  parseEvent,
  parseLogRecord,
  parsePermissionCheckRequest,
  parseSettings,
} from './validate/parse.js'

/** The version of the command/event protocol; bumped on any incompatible change. */
export const PROTOCOL_VERSION = 1
