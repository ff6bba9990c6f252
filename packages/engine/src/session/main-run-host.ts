import { reminderText, wrapReminder } from '@z-engine/prompts'
import type { ContentBlock, Cost, EngineEvent, Usage } from '@z-engine/protocol'
import { addCost, addUsage } from '@z-engine/protocol'
import type { BatchCall } from '../batch/batch-types.js'
import { runBatch } from '../batch/run-batch.js'
import { answeringFromHistory } from '../decisions/seams/ask-user.js'
import { type AskAboutCredentials, sessionRequestScreen } from '../decisions/seams/before-request.js'
import { askAboutCredentials, toolNamesOf, withEffort } from '../decisions/seams/main-agent.js'
import { stopReminder } from '../decisions/seams/stop-boundary.js'
import type { RoundModel } from '../model/types.js'
import type { RunHost, StopDecision } from '../run/agent-run.js'
import { toolSpecsOf } from '../run/tool-specs.js'
import { buildAgentBatchDeps } from './agent-batch-deps.js'
import { createInteractionPort } from './interaction-port.js'
import { mainOpenWork } from './open-work.js'
import type { SessionCore } from './session-core.js'
import type { MainAgent, TurnInput } from './session-types.js'
import type { ActiveTurn } from './state.js'

/** Tool batches without a TodoWrite before an unfinished todo list earns a nudge. */
export const TODO_NUDGE_AFTER_BATCHES = 10

/** Stop-hook continuations allowed per turn (spec 000 "Stop boundary"). */
export const MAX_STOP_HOOK_CONTINUATIONS = 5

/** Wires the main agent's run to its session: journal, gate, hooks, approvals, budgets. */
export function buildMainRunHost(
  session: SessionCore,
  agent: MainAgent,
  turn: ActiveTurn,
  input: TurnInput,
  /**
   * The turn's checkpoint: `start` lets it begin (called as each request goes out and before a batch
   * that may write), `taken` resolves once it is taken; no tool that may write runs before that.
   */
  checkpoint: { start: () => void; taken: Promise<void> } = { start: () => {}, taken: Promise.resolve() },
  /** The verification mark taken when the turn started (its changes and records come after). */
  verificationMark = 0,
): RunHost {
  const scope = { turnId: turn.id }
  const { state, services } = session
  // MCP servers may add or drop tools between rounds: the list is re-described only when it changed,
  // and only when a request is built, so a batch always runs against the tools its request offered.
  let toolsSeen = agent.tools
  let toolSpecs = toolSpecsOf(toolsSeen)
  let toolsByName = new Map(agent.tools.map((tool) => [tool.name, tool]))
  let cwd = session.startCwd
  const nudgeTodos = todoNudger(session)
  const stageWrites = writeStager(session)
  const modelRef = () => input.modelRef ?? state.modelRef
  // The fallback this turn switched to (`model.fallback`), whose usage is priced as its own.
  let fallenBack: { ref: string; id: string } | undefined
  const decisions = services.decisions
  const screen = sessionRequestScreen(decisions)
  const askCredentials: AskAboutCredentials = (values, toolUseId, signal) =>
    askAboutCredentials(createInteractionPort(session, { toolUseId, turnId: turn.id }), values, signal)

  // Every event of the run, journaled first when it is a persisted one.
  const emit = (event: EngineEvent) => session.commit(event, scope)

  const batchDeps = buildAgentBatchDeps(session, {
    agentId: 'main',
    root: session.projectRoot,
    tools: agent.tools,
    cwd: {
      get: () => cwd,
      set: (next) => {
        const before = cwd
        cwd = next
        // Claude Code's CwdChanged: the main agent's shell moved. It only informs, so the call
        // does not wait for it (the session's scope ends what is still running when it closes).
        if (next !== before) void services.hooks.cwdChanged?.(before, next)
      },
    },
    mode: () => state.mode,
    scope,
    cancelledFeedback: 'cancelled with the turn',
    // Questions, plans and todos are the session's own: bind them to this call and turn.
    bindCtx: (ctx, toolUseId) => ({
      ...ctx,
      ports: {
        ...ctx.ports,
        interaction: answeringFromHistory(
          createInteractionPort(session, { toolUseId, turnId: turn.id }),
          decisions,
          () => state.workingSet,
        ),
      },
    }),
  })

  return {
    model: () => {
      const resolved = services.models.resolve(modelRef())
      if (!resolved.ok) throw new Error(resolved.message)
      return withEffort(resolved.model, input.effort)
    },
    fallbackModel: () => {
      const fallback = switchToFallback(session, modelRef(), input.effort)
      if (fallback !== undefined) fallenBack = { ref: fallback.ref, id: fallback.model.id }
      return fallback?.model
    },
    system: () => services.system(modelRef()),
    tools: () => {
      const latest = agent.tools
      if (latest !== toolsSeen) {
        toolsSeen = latest
        toolSpecs = toolSpecsOf(latest)
        toolsByName = new Map(latest.map((tool) => [tool.name, tool]))
        batchDeps.tools = toolsByName
      }
      return toolSpecs
    },
    workingSet: () => state.workingSet,
    append: (message, origin) => {
      if (origin === 'assistant') stageWrites.answered()
      return session.appendMessage(message, origin, turn.id)
    },
    emit,
    recordUsage: usageRecorder(
      session,
      (model) => (fallenBack !== undefined && model === fallenBack.id ? fallenBack.ref : modelRef()),
      scope,
    ),
    relievePressure: (force, reported) => agent.relievePressure(state.workingSet, force, reported),
    runBatch: async (calls, signal) => {
      // Reads run at once; a batch that may write waits for the checkpoint it must not precede.
      if (calls.some((call) => mayWrite(toolsByName.get(call.block.name), call.block.input))) {
        checkpoint.start()
        await checkpoint.taken
      }
      const outcome = await runBatch(calls, batchDeps, signal)
      if (outcome.mutated) stageWrites.wrote()
      if (outcome.stop !== undefined && !signal.aborted) {
        // Claude Code's `continue: false`: the results are kept, no further round runs.
        session.notice('warning', `A hook stopped the turn: ${outcome.stop}`, 'hook_stopped')
        turn.stopReason = 'hook'
        turn.controller.abort()
      }
      if (services.afterBatch && !signal.aborted) {
        const reminders = await services
          .afterBatch(
            calls.map((call) => call.block),
            outcome.changedFiles,
            cwd,
          )
          .catch(() => [])
        state.reminders.push(...reminders)
      }
      nudgeTodos(calls)
      return outcome
    },
    takeFollowUps: () => state.takeFollowUps(),
    screenResults: (content, signal) =>
      screen.screen(content, toolNamesOf(state.workingSet), askCredentials, signal),
    openWork: mainOpenWork(session, verificationMark),
    stopBoundary: mainStopBoundary(session, turn, input.text, verificationMark),
    budgetExceeded: (roundsDone) => {
      if (roundsDone >= session.limits.maxTurns) return 'maxTurns'
      if (session.limits.costCapUsd > 0 && state.cost.totalUsd >= session.limits.costCapUsd)
        return 'sessionCostCap'
      return undefined
    },
    newId: session.newId,
    // After this tick's work: the SDK reaches its fetch through promise continuations, so the
    // request is on the wire before the checkpoint's git processes start.
    // The sandbox probe starts then too (issue 17); shell decisions wait for it (`gate.ready`).
    requestStarted: () => {
      setImmediate(() => {
        checkpoint.start()
        void services.gate.ready?.().catch(() => {})
        stageWrites.requestSent()
      })
    },
  }
}

/** How long a request after a writing batch waits for its answer before the tree is staged. */
const STAGE_AFTER_MS = 100

/**
 * Overlaps the after-turn checkpoint's staging with the model's answer (issue 40): when a request
 * that follows a batch that wrote files is still unanswered after {@link STAGE_AFTER_MS}, the tree
 * is staged meanwhile, so if the answer ends the turn its snapshot only confirms nothing changed
 * since (one git process, not three, between the last answer and the exit). An answer that comes
 * sooner stages nothing: the staging would then run after it and only add a process. What is
 * recorded is the same: the snapshot still runs at the turn's end.
 */
function writeStager(session: SessionCore): {
  wrote: () => void
  requestSent: () => void
  answered: () => void
} {
  let unstaged = false
  let timer: NodeJS.Timeout | undefined
  const stageNow = () => {
    timer = undefined
    const stage = session.services.checkpoints.stage
    if (!unstaged || stage === undefined) return
    unstaged = false
    // Closing waits for it like any checkpoint work; the after-turn snapshot queues behind it.
    const staged = stage().catch(() => undefined)
    session.state.checkpointing = Promise.all([session.state.checkpointing, staged]).then(
      () => {},
      () => {},
    )
  }
  return {
    wrote: () => {
      unstaged = true
    },
    requestSent: () => {
      if (!unstaged || session.services.checkpoints.stage === undefined) return
      clearTimeout(timer)
      // Never what keeps the process alive: a closing session does not wait for it.
      timer = setTimeout(stageNow, STAGE_AFTER_MS).unref()
    },
    answered: () => {
      clearTimeout(timer)
      timer = undefined
    },
  }
}

/**
 * The main agent's stop boundary (spec 000 "Stop boundary"), in order: Stop hooks may continue
 * the run (at most {@link MAX_STOP_HOOK_CONTINUATIONS} times a turn), queued steering continues it,
 * `verification.mode` auto/strict may continue with the checks' failures, then the stop decision
 * seam may continue once with a reminder; otherwise the turn ends.
 */
export function mainStopBoundary(
  session: SessionCore,
  turn: ActiveTurn,
  prompt: string,
  verificationMark: number,
): (finalText: string, mutated: boolean) => Promise<StopDecision> {
  const { state, services } = session
  let stopContinuations = 0
  let verificationContinuations = 0
  let decisionContinuations = 0
  return async (finalText, mutated) => {
    if (stopContinuations < MAX_STOP_HOOK_CONTINUATIONS) {
      const hook = await services.hooks.stop(stopContinuations > 0)
      if (hook.stop !== undefined) {
        session.notice('warning', `A hook stopped the turn: ${hook.stop}`, 'hook_stopped')
        return { type: 'end' }
      }
      if (hook.blocked !== undefined) {
        stopContinuations += 1
        const content: ContentBlock[] = [{ type: 'text', text: `Stop hook feedback: ${hook.blocked}` }]
        return { type: 'continue', content, origin: 'reminder' }
      }
    }
    if (state.steering.length > 0)
      return { type: 'continue', content: state.takeFollowUps(), origin: 'steering' }
    // Step 3: verification.mode auto / strict runs the checks and feeds failures back.
    const verdict = await services.verification
      ?.atStop(verificationMark, verificationContinuations, turn.controller.signal)
      .catch((error: unknown) => {
        session.notice(
          'warning',
          `Verification at the end of the turn failed: ${String(error)}`,
          'verification',
        )
        return { type: 'end' as const }
      })
    if (verdict?.type === 'continue') {
      verificationContinuations += 1
      const content: ContentBlock[] = [{ type: 'text', text: wrapReminder(verdict.text) }]
      return { type: 'continue', content, origin: 'reminder' }
    }
    // Step 4: the stop decision seam may continue once per turn with a reminder.
    const reminder = await stopReminder(
      session.services.decisions,
      { finalText, mutated, prompt },
      decisionContinuations,
      turn.controller.signal,
    )
    if (reminder !== undefined) {
      decisionContinuations += 1
      return {
        type: 'continue',
        content: [{ type: 'text', text: wrapReminder(reminder) }],
        origin: 'reminder',
      }
    }
    return { type: 'end' }
  }
}

/** Records a round's usage and cost on the session (priced as `priceRef(model)`) and announces it. */
export function usageRecorder(
  session: SessionCore,
  priceRef: (model: string) => string,
  scope: { turnId: string },
): (usage: Usage, model: string) => Promise<Cost> {
  const { state, services } = session
  return async (usage, model) => {
    const ref = priceRef(model)
    const cost = services.costOf(usage, ref)
    state.usage = addUsage(state.usage, usage)
    state.cost = addCost(state.cost, cost)
    state.lastPromptTokens = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens
    const window = services.models.contextWindow?.(ref)
    const event = {
      type: 'usageUpdated' as const,
      usage,
      cost,
      sessionUsage: state.usage,
      sessionCost: state.cost,
      model,
      ...(window !== undefined
        ? { contextTokens: state.lastPromptTokens + usage.outputTokens, contextWindow: window }
        : {}),
    }
    await session.commit(event, scope)
    return cost
  }
}

/** After each batch: an unfinished todo list not touched for {@link TODO_NUDGE_AFTER_BATCHES} batches earns a nudge. */
function todoNudger(session: SessionCore): (calls: readonly BatchCall[]) => void {
  const { state } = session
  let batchesSinceTodoWrite = 0
  return (calls) => {
    batchesSinceTodoWrite = calls.some((call) => call.block.name === 'TodoWrite')
      ? 0
      : batchesSinceTodoWrite + 1
    const unfinished = state.todos.filter((todo) => todo.status !== 'completed')
    if (unfinished.length > 0 && batchesSinceTodoWrite >= TODO_NUDGE_AFTER_BATCHES) {
      batchesSinceTodoWrite = 0
      const todos = state.todos.map((todo) => `- [${todo.status}] ${todo.content}`).join('\n')
      state.reminders.push(reminderText('todoNudge', { todos }))
    }
  }
}

/**
 * The fallback model (`model.fallback`) a turn switches to when the main one stays overloaded,
 * announced; undefined (with a notice when it cannot be used) when there is none.
 */
function switchToFallback(
  session: SessionCore,
  current: string,
  effort: TurnInput['effort'],
): { ref: string; model: RoundModel } | undefined {
  const models = session.services.models
  const ref = models.fallback?.()
  if (ref === undefined || ref === current) return undefined
  const resolved = models.resolve(ref)
  if (!resolved.ok) {
    session.notice(
      'warning',
      `${current} is overloaded and the fallback model ${ref} cannot be used: ${resolved.message}`,
      'model_fallback_failed',
    )
    return undefined
  }
  session.notice(
    'warning',
    `${current} is overloaded; this turn continues on the fallback model ${ref}.`,
    'model_fallback',
  )
  return { ref, model: withEffort(resolved.model, effort) }
}

/** Unknown tools, and tools whose classifier fails on this input, count as writing (fail closed). */
function mayWrite(tool: { isReadOnly(input: unknown): boolean } | undefined, input: unknown): boolean {
  if (!tool) return true
  try {
    return !tool.isReadOnly(input)
  } catch {
    return true
  }
}
