import type {
  ApprovalDecision,
  ApprovalRequest,
  EventEnvelope,
  PermissionMode,
  PlanDecision,
  PlanProposal,
  QuestionRequest,
  QuestionResponse,
} from '@z-engine/protocol'
import type { Session } from '../session/session-types.js'
import type { TurnHandle, TurnResult } from '../session/turn-handle.js'
import { AsyncQueue } from '../util/async-queue.js'
import { Engine } from './engine.js'
import type { EngineOptions, OpenSessionOptions } from './engine-options.js'

/** Answers an approval card (a call the policy, a hook or `canUseTool` asked about). */
export type OnApproval = (request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>
/** Answers AskUserQuestion. */
export type OnQuestion = (question: QuestionRequest) => QuestionResponse | Promise<QuestionResponse>
/** Reviews a plan (ExitPlanMode). */
export type OnPlan = (plan: PlanProposal) => PlanDecision | Promise<PlanDecision>

/** What `run` needs: a prompt and a folder, plus any engine or session option and the answerers. */
export interface RunOptions
  extends EngineOptions,
    Pick<
      OpenSessionOptions,
      'tools' | 'settings' | 'hooks' | 'canUseTool' | 'mcpServers' | 'title' | 'systemPrompt'
    > {
  prompt: string
  cwd: string
  model?: string
  mode?: PermissionMode | 'bypassPermissions'
  resume?: string
  /** Answers approvals; without it every call that would ask is denied (the model is told why). */
  onApproval?: OnApproval
  /** Answers questions; without it they are dismissed. */
  onQuestion?: OnQuestion
  /** Reviews plans; without it a plan is rejected (the model is told why). */
  onPlan?: OnPlan
}

/** The feedback a call gets when it needed approval and `run` had no way to ask. */
export const NO_APPROVER_FEEDBACK =
  'run() was called without onApproval, so calls that need approval are denied. Pass onApproval (or canUseTool) to decide them, allow the tool in settings.permissions.allow, or choose another mode.'

/** The feedback a plan gets when `run` had no way to review it. */
export const NO_PLAN_REVIEWER_FEEDBACK =
  'run() was called without onPlan, so plans cannot be approved. Pass onPlan to review them.'

/**
 * One call, one turn: opens an engine and a session, submits `prompt`, answers approvals, questions
 * and plans through the given callbacks (denying, dismissing and rejecting without them, so it never
 * waits forever), and shuts down when the turn ends. Await it for the `TurnResult` (final text,
 * outcome, usage, cost, session id), or iterate it for every event; ending the loop early cancels.
 */
export function run(options: RunOptions): TurnHandle {
  const out = new AsyncQueue<EventEnvelope>()
  let session: Session | undefined
  let cancelled = false
  // What the session takes is given to the session alone: given to the engine too, tools would be
  // offered twice (`Two tools are named …`), hooks would fire twice and settings apply twice.
  const {
    tools: _tools,
    hooks: _hooks,
    canUseTool: _canUseTool,
    settings: _settings,
    ...engineOptions
  } = options
  const result = (async (): Promise<TurnResult> => {
    const engine = await Engine.create(engineOptions)
    try {
      session = await engine.openSession({
        projectRoot: options.cwd,
        ...(options.model !== undefined ? { model: options.model } : {}),
        ...(options.mode !== undefined ? { mode: options.mode } : {}),
        ...(options.resume !== undefined ? { resume: options.resume } : {}),
        ...(options.title !== undefined ? { title: options.title } : {}),
        ...(options.tools !== undefined ? { tools: options.tools } : {}),
        ...(options.settings !== undefined ? { settings: options.settings } : {}),
        ...(options.hooks !== undefined ? { hooks: options.hooks } : {}),
        ...(options.canUseTool !== undefined ? { canUseTool: options.canUseTool } : {}),
        ...(options.mcpServers !== undefined ? { mcpServers: options.mcpServers } : {}),
        ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
      })
      const handle = session.submit(options.prompt)
      if (cancelled) handle.cancel()
      const answering: Array<Promise<void>> = []
      for await (const envelope of handle) {
        answering.push(answer(session, envelope, options))
        out.push(envelope)
      }
      await Promise.all(answering)
      return await handle
    } finally {
      out.close()
      await engine.shutdown()
    }
  })()
  result.catch(() => out.close())
  return {
    result,
    cancel: () => {
      cancelled = true
      session?.send({ type: 'cancel' })
    },
    // biome-ignore lint/suspicious/noThenProperty: the run is awaited for its result by design.
    then: (onFulfilled, onRejected) => result.then(onFulfilled, onRejected),
    [Symbol.asyncIterator]: () => ({
      // A run that fails (before or during its turn) throws from iteration as it does from await.
      next: async () => {
        const item = await out.next()
        if (item.done) await result
        return item
      },
      return: async () => {
        cancelled = true
        session?.send({ type: 'cancel' })
        await result.catch(() => {})
        return { value: undefined, done: true }
      },
    }),
  }
}

/** Answers what the turn waits on, through the callbacks or the never-wait defaults. */
async function answer(session: Session, envelope: EventEnvelope, options: RunOptions): Promise<void> {
  const { event } = envelope
  switch (event.type) {
    case 'approvalRequested': {
      const { request } = event
      const decision: ApprovalDecision = options.onApproval
        ? await Promise.resolve()
            .then(() => options.onApproval!(request))
            .catch((error: unknown) => ({
              type: 'deny' as const,
              feedback: `onApproval failed: ${error instanceof Error ? error.message : String(error)}`,
            }))
        : { type: 'deny', feedback: NO_APPROVER_FEEDBACK }
      session.send({ type: 'resolveApproval', approvalId: request.id, decision })
      return
    }
    case 'questionAsked': {
      const { question } = event
      const response: QuestionResponse = options.onQuestion
        ? await Promise.resolve()
            .then(() => options.onQuestion!(question))
            .catch((): QuestionResponse => ({ type: 'dismissed' }))
        : { type: 'dismissed' }
      session.send({ type: 'answerQuestion', questionId: question.id, response })
      return
    }
    case 'planProposed': {
      const { plan } = event
      const decision: PlanDecision = options.onPlan
        ? await Promise.resolve()
            .then(() => options.onPlan!(plan))
            .catch(
              (error: unknown): PlanDecision => ({
                type: 'reject',
                feedback: `onPlan failed: ${error instanceof Error ? error.message : String(error)}`,
              }),
            )
        : { type: 'reject', feedback: NO_PLAN_REVIEWER_FEEDBACK }
      session.send({ type: 'resolvePlan', planId: plan.id, decision })
      return
    }
    default:
      return
  }
}
