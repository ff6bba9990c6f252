import { reminderText } from '@z-engine/prompts'
import { type Command, type EventEnvelope, type PermissionMode, parseCommand } from '@z-engine/protocol'
import { AsyncQueue } from '../util/async-queue.js'
import { includeFullHistory, resolveSuggestion } from './decision-commands.js'
import type { EventHub } from './event-hub.js'
import { type ExtensionCommandHost, runExtensionCommand } from './extension-commands.js'
import type { SessionEndReason } from './services.js'
import type { SessionCore } from './session-core.js'
import type {
  CommandAction,
  MainAgent,
  Session,
  SessionExtensions,
  SubmitAttachments,
  TurnInput,
} from './session-types.js'
import type { SessionState } from './state.js'
import { titleFromPrompt } from './title.js'
import { runTurn } from './turn.js'
import { createTurnHandle, type TurnHandle } from './turn-handle.js'

/** What a session handle is built from: its core (built first), the main agent and the extensions. */
export interface SessionInit {
  core: SessionCore
  hub: EventHub
  agent: MainAgent
  extensions?: SessionExtensions
}

/**
 * One chat. The actor loop owns the command channel and never waits on the model or a tool: turns run
 * in their own tasks; approvals wait on the broker, so cancel, steering and mode changes keep working.
 */
export class SessionActor implements Session {
  readonly id: string
  readonly projectRoot: string
  readonly #core: SessionCore
  readonly #agent: MainAgent
  readonly #extensions: SessionExtensions
  /** Whether a turn ever started here (a session that never had one is discarded at close). */
  #startedTurn = false
  #closeListeners: Array<() => void> = []
  readonly #hub: EventHub
  readonly #commands = new AsyncQueue<Command>()
  readonly #loop: Promise<void>
  #closed = false
  /** Commands sent and not yet fully handled (queued or running). */
  #pendingCommands = 0
  #idleWaiters: Array<() => void> = []
  /** Turn handles waiting to learn which turn their submit starts (or is delivered into). */
  readonly #submitWaiters = new WeakMap<Command, (turnId: string) => void>()
  /** Turn handles whose text is queued as steering: resolved when it is delivered. */
  #steeringWaiters: Array<(turnId: string) => void> = []
  /**
   * A message was submitted after the user stopped the active turn (cancel, interrupt) but before
   * it settled: it is the user's next message, so it starts the next turn once this one ends.
   */
  #submittedAfterStop = false

  constructor(init: SessionInit) {
    this.#core = init.core
    this.id = init.core.id
    this.projectRoot = init.core.projectRoot
    this.#agent = init.agent
    this.#extensions = init.extensions ?? {}
    this.#hub = init.hub
    this.#state.onSteeringTaken = (turnId) => {
      if (turnId !== undefined) this.#deliverSteering(turnId)
    }
    this.#loop = this.#runLoop()
  }

  #deliverSteering(turnId: string): void {
    const waiters = this.#steeringWaiters
    this.#steeringWaiters = []
    for (const resolve of waiters) resolve(turnId)
  }

  /**
   * Submits a message and returns its turn's handle: iterate it for the turn's events, await it for
   * the result. During a turn the text is queued as steering and the handle follows the turn it is
   * delivered into.
   */
  submit(text: string, options: { attachments?: SubmitAttachments } = {}): TurnHandle {
    const refused = parseCommand({ type: 'submit', text, ...options })
    const events = this.#closed || !refused.ok ? closedQueue() : this.#hub.subscribe({ backlog: false })
    let resolveTurn!: (turnId: string) => void
    const turnId = new Promise<string>((resolve) => {
      resolveTurn = resolve
    })
    const command: Command = {
      type: 'submit',
      text,
      ...(options.attachments !== undefined ? { attachments: options.attachments } : {}),
    }
    this.#submitWaiters.set(command, resolveTurn)
    this.send(command)
    return createTurnHandle({
      events,
      unsubscribe: () => this.#hub.unsubscribe(events),
      turnId,
      cancel: () => this.send({ type: 'cancel' }),
    })
  }

  get #state(): SessionState {
    return this.#core.state
  }

  /**
   * Queues a command; it is handled in order without blocking on any running turn. A command that
   * does not fit the protocol's schema is refused with an `invalid_command` notice.
   */
  send(command: Command): void {
    if (this.#closed) return
    const checked = this.#checked(command)
    if (!checked) return
    this.#pendingCommands += 1
    this.#commands.push(checked)
  }

  /** The command as the protocol's schema reads it, or undefined (with a notice) when it does not fit. */
  #checked(command: Command): Command | undefined {
    const parsed = parseCommand(command)
    if (!parsed.ok) {
      const type = (command as { type?: unknown } | null)?.type
      const where = parsed.error.path === '' ? '' : `${parsed.error.path} `
      this.#notice(
        'error',
        `The ${typeof type === 'string' ? `'${type}' ` : ''}command was refused: ${where}${parsed.error.message}.`,
        'invalid_command',
      )
      return undefined
    }
    const waiter = this.#submitWaiters.get(command)
    if (waiter && parsed.command !== command) this.#submitWaiters.set(parsed.command, waiter)
    return parsed.command
  }

  /** Every event published from now on, as envelopes. End the iteration to unsubscribe. */
  events(): AsyncIterable<EventEnvelope> {
    const queue = this.#hub.subscribe()
    return {
      [Symbol.asyncIterator]: () => ({
        next: () => queue.next(),
        return: () => {
          this.#hub.unsubscribe(queue)
          return Promise.resolve({ value: undefined, done: true })
        },
      }),
    }
  }

  /** Resolves when no turn is running and no command is queued. */
  idle(): Promise<void> {
    if (!this.#state.activeTurn && this.#pendingCommands === 0) return Promise.resolve()
    return new Promise((resolve) => this.#idleWaiters.push(resolve))
  }

  /**
   * Cancels the running turn, flushes the journal and ends every event stream. `reason` is what
   * SessionEnd hooks receive, in Claude Code's terms: `clear` (/clear), `logout`,
   * `prompt_input_exit` (the user left the chat), `other` (default).
   */
  async close(options: { reason?: SessionEndReason } = {}): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    const turn = this.#state.activeTurn
    if (turn) {
      turn.stopReason = 'close'
      turn.controller.abort()
      await turn.done
    }
    // A checkpoint still being taken after its (read-only) turn ended: journal it before closing.
    await this.#state.checkpointing
    await this.#core.services.decisions?.close()
    this.#core.cancelWaits()
    this.#commands.close()
    await this.#loop
    await this.#core.services.hooks.sessionEnd?.(options.reason ?? 'other').catch(() => {})
    await this.#core.services.log.sync().catch(() => {})
    await this.#core.services.log.close().catch(() => {})
    await this.#extensions.dispose?.().catch(() => {})
    if (this.#state.workingSet.length === 0 && this.#state.activeTurn === undefined && !this.#startedTurn)
      await this.#extensions.discardIfEmpty?.().catch(() => {})
    this.#hub.close()
    for (const listener of this.#closeListeners) listener()
  }

  /** Registers a callback run once after the session closed. */
  onClose(listener: () => void): void {
    this.#closeListeners.push(listener)
  }

  /** The permission mode in effect. */
  get mode(): PermissionMode {
    return this.#state.mode
  }

  /** The model reference in effect. */
  get model(): string {
    return this.#state.modelRef
  }

  /** Whether a turn (or compaction, rewind) is running; false from the moment `turnFinished` is published. */
  get busy(): boolean {
    const active = this.#state.activeTurn
    return active !== undefined && active.finishing !== true
  }

  #notice(level: 'info' | 'warning' | 'error', message: string, code?: string): void {
    this.#core.notice(level, message, code)
  }

  async #runLoop(): Promise<void> {
    for await (const command of this.#commands) {
      try {
        await this.#handle(command)
      } catch (error) {
        this.#notice(
          'error',
          `Command ${command.type} failed: ${error instanceof Error ? error.message : String(error)}`,
        )
      }
      this.#pendingCommands -= 1
      this.#notifyIdle()
    }
  }

  #notifyIdle(): void {
    if (this.#state.activeTurn || this.#pendingCommands > 0) return
    const waiters = this.#idleWaiters
    this.#idleWaiters = []
    for (const resolve of waiters) resolve()
  }

  #startTurn(input: TurnInput): string {
    this.#startedTurn = true
    // A new session is titled after its first prompt (spec 004: metadata carries a title).
    // An empty title was cleared by a rewind: the next prompt titles the session again.
    if (!this.#state.title) {
      const title = titleFromPrompt(input.text)
      if (title !== undefined) {
        this.#state.title = title
        void this.#core.commit({ type: 'titleChanged', title }).catch(() => {})
      }
    }
    const controller = new AbortController()
    const id = this.#core.newId('t')
    const turn = { id, controller, done: Promise.resolve() } as NonNullable<SessionState['activeTurn']>
    this.#state.activeTurn = turn
    turn.done = runTurn(this.#core, this.#agent, turn, input)
      .catch((error: unknown) => {
        this.#notice(
          'error',
          `The turn failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
        )
      })
      .finally(() => {
        if (this.#state.activeTurn === turn) this.#state.activeTurn = undefined
        // A message typed after the stop boundary looked for steering starts the next turn; after
        // an interrupt it waits for the user's next message instead (spec: steering is kept), unless
        // that message already came while the stopped turn was ending.
        const next = turn.stopReason === undefined || this.#submittedAfterStop
        this.#submittedAfterStop = false
        if (!this.#closed && next && this.#state.steering.length > 0) {
          const text = this.#state.steering.join('\n\n')
          this.#state.steering = []
          this.#deliverSteering(this.#startTurn({ text }))
          return
        }
        this.#notifyIdle()
      })
    return id
  }

  async #handle(command: Command): Promise<void> {
    switch (command.type) {
      case 'submit': {
        const attachments = command.attachments ?? []
        const waiter = this.#submitWaiters.get(command)
        if (this.#state.activeTurn) {
          const stop = this.#state.activeTurn.stopReason
          if (stop === 'cancel' || stop === 'interrupt') this.#submittedAfterStop = true
          if (waiter) this.#steeringWaiters.push(waiter)
          if (attachments.length > 0) {
            this.#notice(
              'warning',
              'Attachments cannot be added while a turn runs; only the text was queued.',
              'steering',
            )
          }
          this.#state.steering.push(command.text)
          this.#hub.publish({ type: 'steeringQueued', text: command.text })
        } else {
          const turnId =
            attachments.length > 0
              ? this.#startTurn({
                  text: command.text,
                  content: [{ type: 'text', text: command.text }, ...attachments],
                })
              : this.#startTurn({ text: command.text })
          waiter?.(turnId)
        }
        return
      }
      case 'steer':
        this.#state.steering.push(command.text)
        this.#hub.publish({ type: 'steeringQueued', text: command.text })
        return
      case 'cancel':
      case 'interrupt': {
        const turn = this.#state.activeTurn
        if (!turn) return
        turn.stopReason = command.type
        if (command.type === 'cancel') {
          // Queued texts are dropped with the turn; their handles end with it.
          this.#state.steering = []
          this.#deliverSteering(turn.id)
        }
        turn.controller.abort()
        return
      }
      case 'resolveApproval': {
        if (!this.#core.approvals.resolve(command.approvalId, command.decision))
          this.#noPending('approval', command.approvalId)
        return
      }
      case 'setMode':
        if (command.mode !== this.#state.mode) {
          // The model learns of the new mode with its next user message.
          this.#state.reminders.push(
            command.mode === 'plan'
              ? reminderText('planMode', {})
              : this.#state.mode === 'plan'
                ? reminderText('planModeExited', { mode: command.mode })
                : reminderText('modeChanged', { mode: command.mode }),
          )
        }
        this.#state.mode = command.mode
        await this.#core.commit({ type: 'modeChanged', mode: command.mode })
        return
      case 'setModel':
        return this.#setModel(command.model, 'sdk')
      case 'setTitle':
        this.#state.title = command.title
        await this.#core.commit({ type: 'titleChanged', title: command.title })
        return
      case 'answerQuestion':
        if (!this.#core.questions.resolve(command.questionId, command.response))
          this.#noPending('question', command.questionId)
        return
      case 'resolvePlan':
        if (!this.#core.plans.resolve(command.planId, command.decision))
          this.#noPending('plan', command.planId)
        return
      case 'compact':
      case 'rewind':
      case 'undoRewind':
      case 'killJob':
      case 'runCommand':
      case 'trustWorkspace':
      case 'reloadSettings':
      case 'runShell':
      case 'applyAgentChanges':
      case 'discardAgentChanges':
        if (await runExtensionCommand(command, this.#extensionHost())) return
        break
      case 'resolveSuggestion':
        await resolveSuggestion(this.#core, command, {
          busy: () => this.#state.activeTurn !== undefined,
          startTurn: (text) => {
            this.#startTurn({ text })
          },
        })
        return
      case 'includeFullHistory':
        await includeFullHistory(this.#core, {
          // A finishing turn sends no more requests: its working set may change now.
          busy: () => this.busy,
          replayWorkingSet: this.#extensions.replayWorkingSet,
        })
        return
      default: {
        const unreachable: never = command
        throw new Error(`unknown command ${JSON.stringify(unreachable)}`)
      }
    }
    this.#notice(
      'warning',
      `The '${command.type}' command is not available in this session.`,
      'unsupported_command',
    )
  }

  /** Says an answer found nothing waiting: it was already answered or cancelled. */
  #noPending(kind: 'approval' | 'question' | 'plan', id: string): void {
    this.#notice('warning', `No pending ${kind} '${id}'; it was already answered or cancelled.`)
  }

  /** What an extension command borrows of this session. */
  #extensionHost(): ExtensionCommandHost {
    return {
      state: this.#state,
      hub: this.#hub,
      extensions: this.#extensions,
      notice: (level, message, code) => this.#notice(level, message, code),
      startTask: (work) => this.#startTask(work),
      carryOut: (action) => this.#carryOut(action),
      setMode: (mode) => this.#handle({ type: 'setMode', mode }),
      setTitle: (title) => this.#handle({ type: 'setTitle', title }),
    }
  }

  /** Changes the model; PreModelSwitch hooks may keep the current one, PostModelSwitch hooks hear of it. */
  async #setModel(model: string, source: 'command' | 'sdk'): Promise<void> {
    const models = this.#core.services.models
    const resolved = models.resolve(model)
    if (!resolved.ok) {
      this.#notice('error', resolved.message, 'unknown_model')
      return
    }
    const before = models.resolve(this.#state.modelRef)
    const change = {
      fromModel: before.ok ? before.model.id : this.#state.modelRef,
      toModel: resolved.model.id,
      requestedModel: model,
      source,
      contextTokens: this.#state.lastPromptTokens,
    }
    const hooks = this.#core.services.hooks
    const verdict = (await hooks.preModelSwitch?.(change)) ?? {}
    if (verdict.blocked !== undefined) {
      this.#notice(
        'warning',
        `The model stays ${this.#state.modelRef}: ${verdict.blocked}`,
        'model_switch_blocked',
      )
      return
    }
    this.#state.modelRef = model
    this.#state.modelPinned = true
    await this.#core.commit({ type: 'modelChanged', model })
    await hooks.postModelSwitch?.(change)
  }

  async #carryOut(action: CommandAction): Promise<void> {
    switch (action.type) {
      case 'output':
        this.#hub.publish({ type: 'commandOutput', name: action.name, markdown: action.markdown })
        return
      case 'notice':
        this.#notice(action.level, action.message, 'command')
        return
      case 'turn':
        this.#startTurn(action.input)
        return
      case 'compact':
        return this.#handle({
          type: 'compact',
          ...(action.focus !== undefined ? { focus: action.focus } : {}),
        })
      case 'command':
        // `/model <name>` is Claude Code's `command` source for the model-switch hooks.
        if (action.command.type === 'setModel') return this.#setModel(action.command.model, 'command')
        return this.#handle(action.command)
      case 'task':
        this.#startTask(async (signal) => this.#carryOut(await action.run(signal)))
        return
      default: {
        const unreachable: never = action
        throw new Error(`unknown command action ${JSON.stringify(unreachable)}`)
      }
    }
  }

  /** Runs session work that is not a turn (compaction, rewind) as the active task. */
  #startTask(work: (signal: AbortSignal) => Promise<void>): void {
    const controller = new AbortController()
    const task = { id: this.#core.newId('task'), controller, done: Promise.resolve() } as NonNullable<
      SessionState['activeTurn']
    >
    this.#state.activeTurn = task
    task.done = work(controller.signal)
      .catch((error: unknown) => {
        this.#notice('error', error instanceof Error ? error.message : String(error))
      })
      .finally(() => {
        if (this.#state.activeTurn === task) this.#state.activeTurn = undefined
        this.#notifyIdle()
      })
  }
}

function closedQueue(): AsyncQueue<EventEnvelope> {
  const queue = new AsyncQueue<EventEnvelope>()
  queue.close()
  return queue
}
