import type { PermissionMode } from '@z-engine/protocol'
import type { Tool, ToolCtx, ToolResult } from '@z-engine/tools'
import type { BatchDeps } from '../batch/batch-types.js'
import { consultHost } from '../batch/can-use-tool.js'
import { InputValidator } from '../batch/input-schema.js'
import { notesForResult } from '../decisions/seams/after-call.js'
import { reviewAllowedCall } from '../decisions/seams/tool-gate.js'
import type { ShellRun } from '../verification/session-verification.js'
import type { EventScope } from './event-hub.js'
import { requestApprovals } from './request-approvals.js'
import type { SessionCore } from './session-core.js'

const validator = new InputValidator()

/** How one agent's batches differ: its id, root, tools, shell cwd, mode and its calls' context. */
export interface AgentBatchOptions {
  /** `main` for the main agent. */
  agentId: string
  /** A subagent's type (its definition's name), for its hooks' stdin and matchers. */
  agentType?: string
  /** The agent's root (the project, or a worktree): paths and policy resolve against it. */
  root: string
  tools: readonly Tool[]
  /** The agent's persistent shell cwd. */
  cwd: { get(): string; set(cwd: string): void }
  /** The mode its calls are decided in. */
  mode(): PermissionMode
  /** Where its events and approval records belong (turn or agent). */
  scope: EventScope
  /** Feedback recorded for an approval wait cancelled with its run. */
  cancelledFeedback: string
  /** Adjusts one call's context (the main agent binds interaction to the call; a subagent its ports). */
  bindCtx(ctx: ToolCtx, toolUseId: string): ToolCtx
  /** Told when the agent starts and stops waiting on the user (a subagent shows as waiting). */
  onApprovalWait?(waiting: boolean): void
}

/**
 * The one builder of a tool batch's dependencies, for the main agent and every subagent: the
 * session's gate, hooks, approval broker and journal, with the agent's root, mode and scope.
 */
export function buildAgentBatchDeps(core: SessionCore, options: AgentBatchOptions): BatchDeps {
  const { services, state } = core
  const { scope } = options
  const host = services.canUseTool
  // What the call's hooks see: the agent, its mode and cwd (Claude Code's agent_id/agent_type).
  const site = () => ({
    mode: options.mode(),
    root: options.root,
    cwd: options.cwd.get(),
    ...(options.agentId !== 'main' ? { agentId: options.agentId } : {}),
    ...(options.agentType !== undefined ? { agentType: options.agentType } : {}),
  })
  const deps: BatchDeps = {
    tools: new Map(options.tools.map((tool) => [tool.name, tool])),
    actionCtx: () => {
      // Checks run in the project; an agent rooted elsewhere (a worktree) has none to map a run to.
      const checks = options.root === core.projectRoot ? services.verification?.known() : undefined
      return {
        projectRoot: options.root,
        cwd: options.cwd.get(),
        home: services.home,
        ...(checks !== undefined ? { checks } : {}),
      }
    },
    toolCtx: (toolUseId, progress) =>
      options.bindCtx(
        services.toolCtx({
          agentId: options.agentId,
          toolUseId,
          cwd: () => options.cwd.get(),
          setCwd: (next) => options.cwd.set(next),
          progress,
        }),
        toolUseId,
      ),
    validate: (name, schema, value) => validator.check(name, schema, value),
    preToolUse: (name, value, toolUseId) => services.hooks.preToolUse(name, value, toolUseId, site()),
    decide: (name, action) => services.gate.decide(name, action, options.mode(), options.root),
    ...(services.gate.ready ? { decideReady: () => services.gate.ready?.() ?? Promise.resolve() } : {}),
    ...(host
      ? { canUseTool: (request, signal) => consultHost(host.callback, request, signal, host.timeoutMs) }
      : {}),
    ...(services.hooks.permissionRequest
      ? {
          permissionRequest: (name, input, toolUseId, suggestion) =>
            services.hooks.permissionRequest?.(
              { toolName: name, input, toolUseId, ...(suggestion !== undefined ? { suggestion } : {}) },
              site(),
            ) ?? Promise.resolve({}),
        }
      : {}),
    requestApprovals: async (requests, signal) => {
      options.onApprovalWait?.(true)
      try {
        return await requestApprovals(core, requests, signal, {
          scope,
          cancelledFeedback: options.cancelledFeedback,
        })
      } finally {
        options.onApprovalWait?.(false)
      }
    },
    grantRule: async (rule, ruleScope) => {
      state.sessionRules.push(rule)
      await services.gate.grant(rule, ruleScope)
    },
    postToolUse: async (name, value, result, toolUseId) => {
      if (result.ok && changesTree(deps.tools.get(name), value, result)) services.verification?.noteChange()
      const run = name === 'Bash' ? shellRunOf(value, result) : undefined
      // After the change is noted: a check run through Bash is evidence newer than it.
      if (run !== undefined) await services.verification?.noteShellRun?.(run).catch(() => undefined)
      return services.hooks.postToolUse(name, value, result, site(), toolUseId)
    },
    postToolBatch: async (calls) => services.hooks.postToolBatch?.(calls, site()),
    emit: (event) => core.commit(event, scope),
    ...(services.decisions?.joins('toolGate')
      ? {
          reviewAllowed: (call, signal) =>
            reviewAllowedCall(services.decisions, { ...call, agentId: options.agentId }, signal),
        }
      : {}),
    ...(services.decisions?.joins('afterCall') || services.decisions?.joins('relevance')
      ? { notesFor: (call, signal) => notesForResult(services.decisions, call, signal) }
      : {}),
    maxConcurrency: core.limits.maxConcurrency,
    ...(options.agentId !== 'main' ? { agentId: options.agentId } : {}),
    newId: core.newId,
  }
  return deps
}

/**
 * A finished foreground Bash call as verification sees it: its command, where it ended, its exit
 * code (a failed call's from its error text) and output. Undefined for a background start, a
 * timeout, a cancel or a command that could not start.
 */
function shellRunOf(input: Record<string, unknown>, result: ToolResult): ShellRun | undefined {
  if (typeof input.command !== 'string' || input.run_in_background === true) return undefined
  if (result.ok) {
    const details = result.output.details ?? {}
    if (typeof details.exitCode !== 'number') return undefined
    return {
      command: input.command,
      ...(typeof details.cwd === 'string' ? { cwd: details.cwd } : {}),
      exitCode: details.exitCode,
      output: result.output.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n'),
      ...(typeof details.durationMs === 'number' ? { durationMs: details.durationMs } : {}),
    }
  }
  if (result.error.code !== 'exit_code') return undefined
  const exit = /Exit code (\d+)/.exec(result.error.message)
  return {
    command: input.command,
    exitCode: exit ? Number(exit[1]) : null,
    output: result.error.message,
  }
}

/**
 * Whether a successful call counts as a change for the verification badge: it reported changed
 * files, or it may write and is neither Verify (running checks is the evidence, not a change) nor
 * Agent (a subagent's own calls count for themselves, so a read-only agent changes nothing).
 */
function changesTree(tool: Tool | undefined, input: Record<string, unknown>, result: ToolResult): boolean {
  if (result.ok && (result.output.changedFiles ?? []).length > 0) return true
  if (tool === undefined) return true
  if (NOT_CHANGES.has(tool.name)) return false
  try {
    return !tool.isReadOnly(input)
  } catch {
    return true
  }
}

const NOT_CHANGES = new Set(['Verify', 'Agent', 'Task'])
