export type { AgentInfo, AgentStatus, CheckRecord, JobInfo, TodoItem, WorktreeState } from './agent.js'
export type { Command, CommandOf, CommandType } from './commands.js'
export { COMMAND_TYPES } from './commands.js'
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
export type { EventEnvelope } from './envelope.js'
export type { EngineEvent, EventOf, EventType, NoticeLevel, ToolProgress } from './events.js'
export { EVENT_TYPES } from './events.js'
export type { Checkpoint, CompactionMarker, CompactionTrigger, RewindScope, TaskView } from './history.js'
export { REWIND_SCOPES } from './history.js'
export type {
  PlanDecision,
  PlanProposal,
  Question,
  QuestionAnswer,
  QuestionOption,
  QuestionRequest,
  QuestionResponse,
} from './interaction.js'
export type { LogHeader, LogRecord, LogRecordOf, LogRecordType, MessageOrigin } from './log-records.js'
export { LOG_FORMAT_VERSION, LOG_RECORD_TYPES } from './log-records.js'
export type { Message, Role } from './message.js'
export type {
  ApprovalDecision,
  ApprovalRequest,
  PermissionDecisionKind,
  PermissionMode,
  Preview,
  SuggestedRule,
} from './permission.js'
export { PERMISSION_MODES, parsePermissionMode } from './permission.js'
export type { JsonSchema, ToolChoice, ToolSpec, ToolStatus } from './tool-spec.js'
export type { TurnOutcome, TurnSummary, VerificationBadge } from './turn.js'
export type { Cost, Usage } from './usage.js'
export { addCost, addUsage, ZERO_COST, ZERO_USAGE } from './usage.js'

/** The version of the command/event protocol; bumped on any incompatible change. */
export const PROTOCOL_VERSION = 1
