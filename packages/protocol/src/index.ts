export type { AgentInfo, AgentStatus, CheckRecord, JobInfo, TodoItem, WorktreeState } from './agent.js'
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
export type { Message, Role } from './message.js'
export type {
  ApprovalDecision,
  ApprovalRequest,
  PermissionDecisionKind,
  PermissionMode,
  Preview,
  SuggestedRule,
} from './permission.js'
export { PERMISSION_MODES } from './permission.js'
export type { JsonSchema, ToolChoice, ToolSpec, ToolStatus } from './tool-spec.js'
export type { TurnOutcome, TurnSummary, VerificationBadge } from './turn.js'
export type { Cost, Usage } from './usage.js'
export { addCost, addUsage, ZERO_COST, ZERO_USAGE } from './usage.js'

/** The version of the command/event protocol; bumped on any incompatible change. */
export const PROTOCOL_VERSION = 1
