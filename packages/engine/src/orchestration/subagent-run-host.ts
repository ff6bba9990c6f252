import { wrapReminder } from '@z-engine/prompts'
import type {
  ContentBlock,
  Cost,
  EngineEvent,
  Message,
  MessageOrigin,
  PermissionMode,
  Usage,
} from '@z-engine/protocol'
import { addCost, addUsage } from '@z-engine/protocol'
import type { Ports, Tool } from '@z-engine/tools'
import { runBatch } from '../batch/run-batch.js'
import { type AskAboutCredentials, sessionRequestScreen } from '../decisions/seams/before-request.js'
import { askAboutCredentials, toolNamesOf, withEffort } from '../decisions/seams/main-agent.js'
import type { SystemSection } from '../model/types.js'
import type { RunHost } from '../run/agent-run.js'
import { toolSpecsOf } from '../run/tool-specs.js'
import { buildAgentBatchDeps } from '../session/agent-batch-deps.js'
import { createInteractionPort } from '../session/interaction-port.js'
import { MAX_STOP_HOOK_CONTINUATIONS } from '../session/main-run-host.js'
import type { SessionCore } from '../session/session-core.js'
import type { AgentEntry } from './agent-entry.js'

/** What a subagent's run needs beyond its entry. */
export interface SubagentRunInput {
  session: SessionCore
  entry: AgentEntry
  /** Its filtered toolset, in the caller's order. */
  tools: readonly Tool[]
  system: SystemSection[]
  /** The mode its calls are decided in (the session's bypass already applied). */
  mode(): PermissionMode
  /** Ports its tool calls see (Agent bound to it as the caller, no user interaction). */
  ports: Ports
  maxTurns: number
  /** Reports every change of its info (usage, cost), so the GUI can follow it. */
  onChange(): void
  /** This run's model and effort as the route seam raised them at launch (absent: as configured). */
  route?: { modelRef?: string; effort?: 'low' | 'medium' | 'high' | 'max' }
}

/**
 * Wires a subagent's run (spec 000 "Runtime model"): its own transcript and working set, its root
 * (project or worktree) for paths and policy, the session's gate, hooks and approval broker with
 * its agent id on every request and event, and usage counted toward the session's budget.
 */
export function buildSubagentRunHost(input: SubagentRunInput): RunHost {
  const { session, entry } = input
  const { services, state } = session
  const agentId = entry.info.id
  const scope = { agentId }
  // A routed model serves this run only; the entry keeps its configured one for the next launch.
  const modelRef = input.route?.modelRef ?? entry.modelRef
  const toolSpecs = toolSpecsOf(input.tools)
  let cwd = entry.root
  // Nested AGENTS.md files and glob rules are announced to each agent on its own first touch.
  const afterBatch = services.agentContext?.(entry.root)
  let stopContinuations = 0
  // Its own relief: clears and summaries edit this working set only (the stored transcript is whole).
  const relief = services.agentRelief?.({
    agentId,
    modelRef,
    system: input.system,
    tools: input.tools,
  })

  // Every event of the run carries its agent id; the core journals the persisted ones (its messages
  // in its own transcript, the rest in the main log).
  const emit = (event: EngineEvent) => session.commit(event, scope)

  const batchDeps = buildAgentBatchDeps(session, {
    agentId,
    agentType: entry.definition.name,
    root: entry.root,
    tools: input.tools,
    cwd: {
      get: () => cwd,
      set: (next) => {
        cwd = next
      },
    },
    mode: input.mode,
    scope,
    cancelledFeedback: 'cancelled with the agent',
    bindCtx: (ctx) => ({ ...ctx, projectRoot: entry.root, ports: input.ports }),
    // The GUI shows the agent as waiting on the user until every ask is answered.
    onApprovalWait: (waiting) => {
      entry.info = { ...entry.info, status: waiting ? 'waiting' : 'running' }
      input.onChange()
    },
  })

  // Its new tool results pass the session's request screen (screen_request) before its requests:
  // a question about a likely credential names this agent, which waits on the user meanwhile.
  const screen = sessionRequestScreen(services.decisions)
  const askCredentials: AskAboutCredentials = async (values, toolUseId, signal) => {
    entry.info = { ...entry.info, status: 'waiting' }
    input.onChange()
    try {
      return await askAboutCredentials(createInteractionPort(session, { toolUseId, agentId }), values, signal)
    } finally {
      entry.info = { ...entry.info, status: 'running' }
      input.onChange()
    }
  }

  return {
    model: () => {
      const resolved = services.models.resolve(modelRef)
      if (!resolved.ok) throw new Error(resolved.message)
      return withEffort(resolved.model, input.route?.effort)
    },
    system: async () => input.system,
    tools: () => toolSpecs,
    workingSet: () => entry.messages,
    screenResults: (content, signal) =>
      screen.screen(content, toolNamesOf(entry.messages), askCredentials, signal),
    append: async (message: Message, origin: MessageOrigin) => {
      await emit({ type: 'messageRecorded', message, origin })
      entry.messages.push(message)
      if (message.role === 'assistant') {
        const text = message.content
          .flatMap((block) => (block.type === 'text' ? [block.text] : []))
          .join('\n')
        if (text.trim() !== '') entry.latestText = text.trim()
      }
    },
    emit,
    recordUsage: async (usage: Usage, model: string): Promise<Cost> => {
      const cost = services.costOf(usage, modelRef)
      entry.info = {
        ...entry.info,
        usage: addUsage(entry.info.usage, usage),
        cost: addCost(entry.info.cost, cost),
      }
      // A subagent spends the session's money: the session totals and its cost cap include it.
      state.usage = addUsage(state.usage, usage)
      state.cost = addCost(state.cost, cost)
      await emit({
        type: 'usageUpdated',
        usage,
        cost,
        sessionUsage: state.usage,
        sessionCost: state.cost,
        model,
      })
      input.onChange()
      return cost
    },
    relievePressure: async (force, reported) => relief?.(entry.messages, force, reported),
    runBatch: async (calls, signal) => {
      const outcome = await runBatch(calls, batchDeps, signal)
      if (afterBatch && !signal.aborted) {
        const reminders = await afterBatch(
          calls.map((call) => call.block),
          outcome.changedFiles,
          cwd,
        ).catch(() => [])
        entry.followUps.push(...reminders)
      }
      return outcome
    },
    takeFollowUps: () =>
      entry.followUps.splice(0).map((text): ContentBlock => ({ type: 'text', text: wrapReminder(text) })),
    stopBoundary: async () => {
      // SubagentStop hooks may send the agent back to work, as Stop hooks do the main agent.
      if (stopContinuations >= MAX_STOP_HOOK_CONTINUATIONS) return { type: 'end' }
      const hook = (await services.hooks.subagentStop?.(stopContinuations > 0, {
        id: agentId,
        type: entry.definition.name,
        ...(entry.latestText !== '' ? { lastAssistantMessage: entry.latestText } : {}),
      })) ?? { blocked: undefined }
      if (hook.blocked === undefined) return { type: 'end' }
      stopContinuations += 1
      const content: ContentBlock[] = [{ type: 'text', text: `SubagentStop hook feedback: ${hook.blocked}` }]
      return { type: 'continue', content, origin: 'reminder' }
    },
    budgetExceeded: (roundsDone) => {
      if (roundsDone >= input.maxTurns) return 'maxTurns'
      if (session.limits.costCapUsd > 0 && state.cost.totalUsd >= session.limits.costCapUsd)
        return 'sessionCostCap'
      return undefined
    },
    newId: session.newId,
  }
}
