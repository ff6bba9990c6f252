import type { PermissionMode } from '@z-engine/protocol'
import type { Tool, ToolCtx } from '@z-engine/tools'
import type { BatchDeps } from '../batch/batch-types.js'
import { consultHost } from '../batch/can-use-tool.js'
import { InputValidator } from '../batch/input-schema.js'
import type { EventScope } from './event-hub.js'
import { requestApprovals } from './request-approvals.js'
import type { SessionCore } from './session-core.js'

const validator = new InputValidator()

/** How one agent's batches differ: its id, root, tools, shell cwd, mode and its calls' context. */
export interface AgentBatchOptions {
  /** `main` for the main agent. */
  agentId: string
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
  return {
    tools: new Map(options.tools.map((tool) => [tool.name, tool])),
    actionCtx: () => ({ projectRoot: options.root, cwd: options.cwd.get(), home: services.home }),
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
    preToolUse: (name, value, toolUseId) => services.hooks.preToolUse(name, value, toolUseId),
    decide: (name, action) => services.gate.decide(name, action, options.mode(), options.root),
    ...(host
      ? { canUseTool: (request, signal) => consultHost(host.callback, request, signal, host.timeoutMs) }
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
    postToolUse: (name, value, result) => services.hooks.postToolUse(name, value, result),
    emit: (event) => core.commit(event, scope),
    maxConcurrency: core.limits.maxConcurrency,
    ...(options.agentId !== 'main' ? { agentId: options.agentId } : {}),
    newId: core.newId,
  }
}
