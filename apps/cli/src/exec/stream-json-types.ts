/**
 * The lines `z-engine exec --output-format stream-json` writes, one JSON object per line. The JSON
 * Schema in `schema/stream-json.schema.json` describes the same shapes (a test validates every line
 * against it) and docs/stream-json.md explains them. Fields are snake_case, as automation expects.
 */

import type { PermissionDenial } from './denials.js'

/** Token counts, snake_case. */
export interface StreamUsage {
  input_tokens: number
  output_tokens: number
  cache_read_tokens: number
  cache_write_tokens: number
}

/** How a run ended. */
export type StreamOutcome =
  | 'done'
  | 'failed'
  | 'interrupted'
  | 'cancelled'
  | 'budget_exhausted'
  | 'incomplete'

/** A turn's verification badge: status, and the check or the reason behind it. */
export interface StreamVerification {
  status: 'verified' | 'unverified' | 'failed' | 'not_applicable'
  check_id?: string
  /** Every proving check that passed since the last change (when more than one). */
  check_ids?: string[]
  reason?: string
}

/** Fields on every line. */
interface Common {
  /** The session the line belongs to. */
  session_id: string
  /** The subagent that produced it; absent for the main agent. */
  agent_id?: string
}

/** One stream-json output line. */
export type StreamJsonEvent =
  | (Common & {
      type: 'run_start'
      project_root: string
      model: string
      mode: string
      resumed: boolean
      protocol_version: number
      forked_from?: string
    })
  | (Common & { type: 'text'; text: string })
  | (Common & { type: 'reasoning'; text: string })
  | (Common & {
      type: 'tool_call'
      tool_use_id: string
      name: string
      title: string
      input: Record<string, unknown>
    })
  | (Common & {
      type: 'tool_result'
      tool_use_id: string
      name: string
      status: 'ok' | 'error' | 'denied' | 'cancelled'
      duration_ms: number
      is_error: boolean
      output: string
      summary?: string
    })
  | (Common & {
      type: 'permission'
      tool_use_id: string
      tool_name: string
      decision: 'deny'
      reason: string
    })
  | (Common & {
      type: 'permission_request'
      approval_id: string
      tool_use_id: string
      tool_name: string
      title: string
      reason: string
      preview?: Record<string, unknown>
      suggested_rule?: string
    })
  | (Common & {
      type: 'permission_decision'
      approval_id: string
      decision: 'allow' | 'deny'
      scope: 'once' | 'session' | 'project'
      rule?: string
      feedback?: string
    })
  | (Common & {
      type: 'usage'
      usage: StreamUsage
      cost_usd: number
      session_usage: StreamUsage
      session_cost_usd: number
      model?: string
      context_tokens?: number
      context_window?: number
    })
  | (Common & { type: 'checkpoint'; checkpoint_id: string; message_id: string; commit: string })
  | (Common & {
      type: 'restore'
      message_id: string
      scope: 'code' | 'conversation' | 'both'
      restored_files: string[]
      checkpoint_id?: string
    })
  | (Common & { type: 'warning'; message: string; code?: string })
  | (Common & { type: 'info'; message: string; code?: string })
  | (Common & { type: 'error'; message: string; code?: string })
  | (Common & {
      type: 'final'
      turn_id: string
      outcome: StreamOutcome
      result: string
      usage: StreamUsage
      cost_usd: number
      verification: StreamVerification
      /** True unless the turn did its job: failed, interrupted, out of budget, or every change denied. */
      is_error: boolean
      /** The turn's denied calls, in Claude Code's shape plus `reason`. */
      permission_denials: PermissionDenial[]
      budget?: 'maxTurns' | 'sessionCostCap'
      error?: { code: string; message: string }
      /** Why the answer is incomplete (`outcome: incomplete`). */
      incomplete?: {
        reason: 'emptyAnswer' | 'maxTokens' | 'failingCheck' | 'pendingTodos' | 'promisedWork'
        message: string
      }
    })
  | (Common & { type: 'run_end'; exit_code: number; duration_ms: number })

/** The `type` of every output line, in the order a run usually produces them. */
export const STREAM_JSON_TYPES = [
  'run_start',
  'text',
  'reasoning',
  'tool_call',
  'tool_result',
  'permission',
  'permission_request',
  'permission_decision',
  'usage',
  'checkpoint',
  'restore',
  'warning',
  'info',
  'error',
  'final',
  'run_end',
] as const satisfies readonly StreamJsonEvent['type'][]
