import type { Action, Decision } from '@z-engine/policy'
import type {
  ApprovalDecision,
  ApprovalRequest,
  EngineEvent,
  PermissionDecisionKind,
  SuggestedRule,
  ToolResultBlock,
  ToolStatus,
  ToolUseBlock,
} from '@z-engine/protocol'
import type { ActionCtx, Tool, ToolCtx, ToolResult } from '@z-engine/tools'
import type { HostVerdict, ToolPermissionRequest } from './can-use-tool.js'

/** One call of a batch as the model made it; `parseError` when its arguments were not a JSON object. */
export interface BatchCall {
  block: ToolUseBlock
  parseError?: string
}

/** One finished call of a batch as PostToolBatch hooks read it (Claude Code's snake_case fields). */
export interface BatchCallRecord {
  tool_name: string
  tool_input: unknown
  tool_use_id: string
  tool_response?: unknown
}

/** What PreToolUse hooks said about one call. */
export interface PreToolUseVerdict {
  /** A hook blocked the call (exit 2 or decision block); the reason goes to the model. */
  blocked?: { reason: string }
  /** A hook forced a permission decision. Policy denials still win over a forced allow. */
  permission?: { decision: PermissionDecisionKind; reason?: string }
  /** A hook rewrote the input (validated again before use). */
  updatedInput?: Record<string, unknown>
  /** Extra context for the model, appended to the result. */
  additionalContext?: string
  /**
   * A hook answered `continue: false` (Claude Code): the call does not run and the turn stops after
   * this batch; the text is its `stopReason`, shown to the user.
   */
  stop?: string
}

/** What PermissionRequest hooks answered an ask with; nothing: the user is asked. */
export interface PermissionRequestAnswer {
  decision?:
    | { behavior: 'allow'; updatedInput?: Record<string, unknown> }
    | { behavior: 'deny'; message?: string; interrupt?: boolean }
  /** A hook answered `continue: false`: its stopReason. */
  stop?: string
}

/** What the batch needs from its run; every I/O dependency is injected. */
export interface BatchDeps {
  tools: ReadonlyMap<string, Tool>
  /** Resolves paths for `action()` and `title()`. */
  actionCtx(): ActionCtx
  /** Builds the per-call capability bundle; `progress` is already throttled. */
  toolCtx(toolUseId: string, progress: ToolCtx['progress']): ToolCtx
  validate(
    toolName: string,
    schema: Tool['inputSchema'],
    input: unknown,
  ): string | undefined | Promise<string | undefined>
  preToolUse(toolName: string, input: Record<string, unknown>, toolUseId: string): Promise<PreToolUseVerdict>
  decide(toolName: string, action: Action): Decision
  /** Resolves once `decide` has every fact it uses (the session's sandbox probe); absent: it has. */
  decideReady?(): Promise<void>
  /** The host's `canUseTool`, bound to its timeout; absent: the verdict stands. */
  canUseTool?(request: ToolPermissionRequest, signal: AbortSignal): Promise<HostVerdict>
  /** PermissionRequest hooks, run for a call about to ask; absent: none configured. */
  permissionRequest?(
    toolName: string,
    input: Record<string, unknown>,
    toolUseId: string,
    suggestion: SuggestedRule | undefined,
  ): Promise<PermissionRequestAnswer>
  /** Announces every request, then resolves once all are answered (cancelled → absent from the map). */
  requestApprovals(requests: ApprovalRequest[], signal: AbortSignal): Promise<Map<string, ApprovalDecision>>
  /** Applies AllowSession / AllowProject rules. */
  grantRule(rule: string, scope: 'session' | 'project'): Promise<void>
  postToolUse(
    toolName: string,
    input: Record<string, unknown>,
    result: ToolResult,
    toolUseId: string,
  ): Promise<{ additionalContext?: string; stop?: string }>
  /** PostToolBatch hooks: once every call of the batch has its result, before the next request. */
  postToolBatch?(calls: BatchCallRecord[]): Promise<void>
  emit(event: EngineEvent): Promise<void>
  /**
   * The tool-gate decision seam, asked only about a call that would be allowed: a reason to ask the
   * user instead (with no rule to suggest or persist), or undefined — the Allow stands.
   */
  reviewAllowed?(
    call: { toolName: string; title: string; input: Record<string, unknown> },
    signal: AbortSignal,
  ): Promise<string | undefined>
  /** The after-call (and relevance) decision seams: notes put ahead of a finished call's result. */
  notesFor?(
    call: { toolName: string; input: Record<string, unknown>; resultText: string; isError: boolean },
    signal: AbortSignal,
  ): Promise<string[]>
  /** Concurrency bound for a run of concurrency-safe calls. */
  maxConcurrency: number
  agentId?: string
  newId(prefix: string): string
}

/** The outcome of one batch: results in call order, one per call. */
export interface BatchOutcome {
  results: ToolResultBlock[]
  statuses: ToolStatus[]
  /** Files any call changed (absolute paths). */
  changedFiles: string[]
  /** Whether any call changed state (writes and non-read-only successes). */
  mutated: boolean
  /** A PreToolUse or PostToolUse hook answered `continue: false`: its stopReason; the turn stops. */
  stop?: string
}
