import { reminderText } from '@z-engine/prompts'
import type {
  Checkpoint,
  ContentBlock,
  Cost,
  Message,
  TurnOutcome,
  Usage,
  VerificationBadge,
} from '@z-engine/protocol'
import { type TurnSeams, turnSeams } from '../decisions/turn-seams.js'
import type { ModelErrorKind } from '../model/types.js'
import { type RunOutcome, runAgent } from '../run/agent-run.js'
import { buildMainRunHost } from './main-run-host.js'
import type { SessionCore } from './session-core.js'
import type { MainAgent, TurnInput } from './session-types.js'
import type { ActiveTurn } from './state.js'

function outcomeOf(run: RunOutcome, turn: ActiveTurn): TurnOutcome {
  switch (run.type) {
    case 'done':
      return { type: 'done' }
    case 'cancelled':
      return stoppedOutcome(turn.stopReason)
    case 'budgetExhausted':
      return { type: 'budgetExhausted', budget: run.budget }
    case 'failed':
      return { type: 'failed', error: { code: run.error.kind, message: run.error.message } }
    case 'incomplete':
      return { type: 'incomplete', reason: run.reason, message: run.message }
    default: {
      const unreachable: never = run
      throw new Error(`unknown run outcome ${JSON.stringify(unreachable)}`)
    }
  }
}

/** The badge without a verification service: only whether the turn changed anything. */
function plainBadge(run: RunOutcome): VerificationBadge {
  if (!run.mutated) return { type: 'notApplicable' }
  return { type: 'unverified', reason: 'Files changed and no check ran after the last change.' }
}

/**
 * Runs one turn (spec 001 "Conversations, turns and rounds"): UserPromptSubmit hooks, the opening
 * message, a checkpoint before any tool may write, the agent run, then `turnFinished` with outcome,
 * usage, cost and badge. The journal is synced at the turn boundary.
 */
export async function runTurn(
  session: SessionCore,
  agent: MainAgent,
  turn: ActiveTurn,
  requested: TurnInput,
): Promise<void> {
  // The route seam may raise this turn's effort or model once the prompt is in.
  let input = requested
  const turnId = turn.id
  const scope = { turnId }
  // The turn's usage is what the session spent during it, its subagents included.
  const usageAtStart = { ...session.state.usage }
  const costAtStart = { ...session.state.cost }
  const messageId = session.newId('m')
  await session.commit(
    {
      type: 'turnStarted',
      turnId,
      messageId,
      ...(input.command !== undefined ? { command: input.command } : {}),
    },
    scope,
  )

  // Where the turn's own messages start (moved when a task view replaces the working set).
  let messagesAtStart = session.state.workingSet.length
  // Changes and check records after this mark belong to the turn's badge.
  const verification = session.services.verification
  const verificationMark = verification?.mark() ?? 0
  const finish = async (outcome: TurnOutcome, badge: VerificationBadge, mutated: boolean) => {
    const usage = subtractUsage(session.state.usage, usageAtStart)
    const cost = subtractCost(session.state.cost, costAtStart)
    const finished = { turnId, outcome, usage, cost, badge, mutated }
    const text = finalText(session.state.workingSet.slice(messagesAtStart))
    // The host may start the next turn the moment it sees turnFinished: the session is not busy then.
    turn.finishing = true
    await session.commit(
      { type: 'turnFinished', ...finished, ...(text !== undefined ? { text } : {}) },
      scope,
    )
    await session.services.log.sync().catch(() => {})
  }

  const hook = await session.services.hooks.userPromptSubmit(input.text)
  if (hook.blocked !== undefined) {
    session.notice('warning', `A UserPromptSubmit hook blocked the prompt: ${hook.blocked}`, 'prompt_blocked')
    await finish(
      { type: 'failed', error: { code: 'prompt_blocked', message: hook.blocked } },
      { type: 'notApplicable' },
      false,
    )
    return
  }

  const due = (await session.services.turnReminders?.().catch(() => [])) ?? []
  session.state.reminders.push(...due)
  // Decision seams at turn start: reminders for the opening message, a task view, and the route (effort, model).
  const seams = turnSeams(session)
  const start = await seams.start(input.text, session.state.workingSet, turn.controller.signal)
  session.state.reminders.push(...start.reminders)
  if (start.view !== undefined) {
    // Only here, before the opening message: every request of the turn still extends the one before
    // it byte for byte. Journaled first, so replay rebuilds the same reduced working set.
    await session.commit({ type: 'taskViewApplied', view: start.view }, scope)
    const workingSet = session.state.workingSet
    workingSet.splice(0, workingSet.length, ...seams.applyView(workingSet, start.view))
    messagesAtStart = workingSet.length
  }
  input = await routedInput(session, seams, input, turn.controller.signal)
  await appendOpeningMessage(session, turn, input, hook.additionalContext, messageId)

  const { startCheckpoint, checkpointed } = beginCheckpoint(session, messageId, turnId)

  const host = buildMainRunHost(
    session,
    agent,
    turn,
    input,
    { start: startCheckpoint, taken: checkpointed.then(() => {}) },
    verificationMark,
  )
  let run: RunOutcome
  try {
    run = await runAgent(host, turn.controller.signal)
  } catch (error) {
    // A bug or an unavailable model must still end the turn with an outcome, never leave it open.
    const message = error instanceof Error ? error.message : String(error)
    run = {
      type: 'failed',
      error: { kind: 'invalid_request', message },
      mutated: false,
      changedFiles: [],
      rounds: 0,
    }
  }
  // A run that ended before its first request (a failure, a budget) still takes its checkpoint.
  startCheckpoint()
  // How the turn left the tree, so a rewind reverts only the agent's changes. The next turn's
  // checkpoint starts after it (`state.checkpointing`). A turn that wrote waits for the snapshot
  // (it already waited for its checkpoint): taken after turnFinished, it could capture the user's
  // first edits as the agent's. A read-only turn's mark is a ref to its start and does not wait.
  const ended = checkpointed
    .then((started) => session.services.checkpoints.afterTurn?.(turnId, started, run.mutated))
    .catch(() => undefined)
  trackCheckpointWork(session, ended)
  if (run.mutated) await ended
  if (run.type === 'failed') await reportFailure(session, run.error)
  const badge =
    verification === undefined
      ? plainBadge(run)
      : await verification.badge(verificationMark).catch(
          (error: unknown): VerificationBadge => ({
            type: 'unverified',
            reason: `The badge could not be computed: ${error instanceof Error ? error.message : String(error)}`,
          }),
        )
  const claim = await seams.uncheckedClaim(
    {
      finalText: run.type === 'done' ? run.finalText : '',
      messageId: lastAssistantId(session.state.workingSet.slice(messagesAtStart)) ?? messageId,
      mutated: run.mutated,
      verified: badge.type === 'verified',
    },
    turn.controller.signal,
  )
  if (claim !== undefined) session.publish({ type: 'completionClaimUnchecked', claim })
  await finish(outcomeOf(run, turn), badge, run.mutated)
  if (run.type === 'done') seams.judgeInBackground({ turnId, prompt: input.text, finalText: run.finalText })
}

/**
 * The turn's opening user message: the prompt (or the command's content), then follow-ups, attached
 * `@server:uri` resources and a UserPromptSubmit hook's context; in plan mode a plan reminder is due.
 */
async function appendOpeningMessage(
  session: SessionCore,
  turn: ActiveTurn,
  input: TurnInput,
  additionalContext: string | undefined,
  messageId: string,
): Promise<void> {
  // In plan mode every turn reminds the model that it may only read and plan.
  const planReminder = reminderText('planMode', {})
  if (session.state.mode === 'plan' && !session.state.reminders.includes(planReminder)) {
    session.state.reminders.push(planReminder)
  }
  const opening: ContentBlock[] = input.content ?? [{ type: 'text', text: input.text }]
  const extra: ContentBlock[] = []
  // `@server:uri` mentions attach the resource; one that cannot be read is a notice, never a lost prompt.
  const mentioned = await session.services
    .promptAttachments?.(input.text, turn.controller.signal)
    .catch((error: unknown) => ({
      blocks: [],
      notices: [`MCP resource mentions were not attached: ${String(error)}`],
    }))
  for (const message of mentioned?.notices ?? []) session.notice('warning', message, 'mcp_mention')
  extra.push(...(mentioned?.blocks ?? []))
  if (additionalContext)
    extra.push({ type: 'text', text: `<system-reminder>\n${additionalContext}\n</system-reminder>` })
  await session.appendMessage(
    { id: messageId, role: 'user', content: [...opening, ...session.state.takeFollowUps(), ...extra] },
    input.command !== undefined ? 'command' : 'prompt',
    turn.id,
  )
}

/** Starts the turn's checkpoint once released (see below); what it took, or undefined. */
function beginCheckpoint(
  session: SessionCore,
  messageId: string,
  turnId: string,
): { startCheckpoint: () => void; checkpointed: Promise<Checkpoint | undefined> } {
  // A checkpoint of the tree before any tool may write, so rewind can restore it. It runs alongside
  // the first request and read-only tools; the first batch that may write waits for it. The turn
  // does not: a read-only turn can end first, and the record follows (see `state.checkpointing`).
  // It starts after the previous turn's checkpoint work (its end mark included), and once the first
  // request is on its way (its git processes would otherwise compete with building that request,
  // issue 17), so still before any tool runs; or when the run needs it or ends without a request.
  let startCheckpoint: () => void = () => {}
  const released = new Promise<void>((resolve) => {
    startCheckpoint = resolve
  })
  const checkpointed = Promise.all([session.state.checkpointing, released])
    .then(() => session.services.checkpoints.create(messageId, turnId))
    .catch(() => undefined)
    .then(async (checkpoint) => {
      if (!checkpoint) return undefined
      session.state.checkpoints.push(checkpoint)
      await session.commit({ type: 'checkpointCreated', checkpoint }, { turnId })
      return checkpoint
    })
  trackCheckpointWork(session, checkpointed)
  return { startCheckpoint, checkpointed }
}

/** A failed run: a notice, and StopFailure hooks for the failures Claude Code reports to them. */
async function reportFailure(
  session: SessionCore,
  error: Extract<RunOutcome, { type: 'failed' }>['error'],
): Promise<void> {
  session.notice('error', error.message, error.kind)
  const kind = stopFailureKind(error.kind)
  if (kind !== undefined)
    await session.services.hooks
      .stopFailure?.(kind, error.providerMessage ?? error.message)
      .catch(() => undefined)
}

/**
 * The turn's input with the route seam's effort and model, announced with `routeChosen` (unchanged
 * without one). The model is chosen here, at the turn start, for this turn only: a switch starts a
 * new prompt cache, so it never happens mid-turn. A model the user chose (`/model`) or a command's
 * own `model` is left alone; only the effort may rise then.
 */
async function routedInput(
  session: SessionCore,
  seams: TurnSeams,
  input: TurnInput,
  signal: AbortSignal,
): Promise<TurnInput> {
  const modelRef = input.modelRef ?? session.state.modelRef
  const pinned = input.modelRef !== undefined || session.state.modelPinned
  const routed = await seams.route({ prompt: input.text, modelRef, pinned }, signal)
  return routed === undefined ? input : { ...input, ...routed }
}

/** The id of the last assistant message among `messages`. */
function lastAssistantId(messages: readonly Message[]): string | undefined {
  return messages.findLast((message) => message.role === 'assistant')?.id
}

/** Adds work to `state.checkpointing`, which the next checkpoint, a rewind and a close wait for. */
function trackCheckpointWork(session: SessionCore, work: Promise<unknown>): void {
  session.state.checkpointing = Promise.all([session.state.checkpointing, work]).then(
    () => {},
    () => {},
  )
}

/** The text of the last assistant message among `messages`, when it has any. */
function finalText(messages: readonly Message[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!
    if (message.role !== 'assistant') continue
    const text = message.content
      .flatMap((block) => (block.type === 'text' ? [block.text] : []))
      .join('')
      .trim()
    return text === '' ? undefined : text
  }
  return undefined
}

/**
 * A model error as Claude Code's StopFailure names it (its `error` field, what matchers test);
 * undefined for a cancelled request, which is not a failure.
 */
function stopFailureKind(kind: ModelErrorKind): string | undefined {
  switch (kind) {
    case 'authentication':
    case 'permission':
      return 'authentication_failed'
    case 'rate_limited':
      return 'rate_limit'
    case 'overloaded':
      return 'overloaded'
    case 'invalid_request':
    case 'context_overflow':
      return 'invalid_request'
    case 'not_found':
      return 'model_not_found'
    case 'server':
    case 'network':
      return 'server_error'
    case 'aborted':
      return undefined
    default: {
      const unknownKind: never = kind
      return unknownKind
    }
  }
}

/** The outcome for a turn stopped by a command. */
export function stoppedOutcome(reason: 'cancel' | 'interrupt' | 'close' | 'hook' | undefined): TurnOutcome {
  return reason === 'interrupt' || reason === 'close' ? { type: 'interrupted' } : { type: 'cancelled' }
}

function subtractUsage(total: Usage, before: Usage): Usage {
  return {
    inputTokens: total.inputTokens - before.inputTokens,
    outputTokens: total.outputTokens - before.outputTokens,
    cacheReadTokens: total.cacheReadTokens - before.cacheReadTokens,
    cacheWriteTokens: total.cacheWriteTokens - before.cacheWriteTokens,
  }
}

function subtractCost(total: Cost, before: Cost): Cost {
  return {
    inputUsd: total.inputUsd - before.inputUsd,
    outputUsd: total.outputUsd - before.outputUsd,
    cacheReadUsd: total.cacheReadUsd - before.cacheReadUsd,
    cacheWriteUsd: total.cacheWriteUsd - before.cacheWriteUsd,
    totalUsd: total.totalUsd - before.totalUsd,
    ...(total.cacheSavingsUsd !== undefined
      ? { cacheSavingsUsd: total.cacheSavingsUsd - (before.cacheSavingsUsd ?? 0) }
      : {}),
  }
}
