import type {
  Command,
  ContentBlock,
  EventEnvelope,
  EventOf,
  Message,
  PermissionMode,
  RewindScope,
} from '@z-engine/protocol'
import type { JobPort, Tool } from '@z-engine/tools'
import type { ReportedPrompt } from '../compaction/agent-relief.js'
import type { SessionEndReason } from './services.js'
import type { TurnHandle } from './turn-handle.js'

/** Images (and other blocks) sent with a submitted message, as the `submit` command takes them. */
export type SubmitAttachments = NonNullable<Extract<Command, { type: 'submit' }>['attachments']>

/**
 * One chat, as an embedder holds it: commands in, events out. Nothing internal is reachable from
 * here; the engine's own modules work on the session's core.
 */
export interface Session {
  readonly id: string
  readonly projectRoot: string
  /** Queues a command; it is handled in order without blocking on any running turn. */
  send(command: Command): void
  /**
   * Submits a message; the handle streams its turn's events and resolves to the turn's result (final
   * text, outcome, usage, cost). During a turn the text steers it, and the handle follows that turn.
   */
  submit(text: string, options?: { attachments?: SubmitAttachments }): TurnHandle
  /** Every event published from now on, as envelopes. End the iteration to unsubscribe. */
  events(): AsyncIterable<EventEnvelope>
  /** Resolves when no turn is running and no command is queued. */
  idle(): Promise<void>
  /** Cancels the running turn, flushes the journal and ends every event stream. */
  close(options?: { reason?: SessionEndReason }): Promise<void>
  /** Registers a callback run once after the session closed. */
  onClose(listener: () => void): void
  /** The permission mode in effect. */
  readonly mode: PermissionMode
  /** The model reference in effect. */
  readonly model: string
  /** Whether a turn is running; false from the moment its `turnFinished` is published. */
  readonly busy: boolean
}

/** What starts a turn: the user's text, or a prompt command's expansion. */
export interface TurnInput {
  text: string
  /** For prompt commands: the blocks of the opening message (visible `/name args`, then the body). */
  content?: ContentBlock[]
  command?: string
  /** Rules that hold for this turn only (a command's allowed-tools). */
  turnRules?: string[]
  /** A model for this turn only (a command's `model`). */
  modelRef?: string
  /** A reasoning effort for this turn only (the route decision seam; only ever raised). */
  effort?: 'low' | 'medium' | 'high' | 'max'
}

/** The main agent's own parts: its toolset and the context relief before each request. */
export interface MainAgent {
  /**
   * The toolset, in stable order; MCP tools may come and go between rounds (it is read when a request
   * is built, and the same array comes back while nothing changed).
   */
  readonly tools: readonly Tool[]
  /**
   * Context pressure relief before a request (clears and summaries); `force` after an overflow,
   * `reported` the provider's prompt size for the previous request.
   */
  relievePressure(workingSet: Message[], force: boolean, reported?: ReportedPrompt): Promise<void>
}

/** Limits a session enforces (settings `agents.*`). */
export interface SessionLimits {
  maxTurns: number
  costCapUsd: number
  maxOutputTokens: number
  maxConcurrency: number
}

/** Engine services some commands need beyond the session's own (absent in bare test sessions). */
export interface SessionExtensions {
  compaction?: { compactNow(focus?: string): Promise<void> }
  gate?: { setTurnRules(rules: readonly string[]): void; addDirectory(directory: string): void }
  jobs?: JobPort
  system?: { invalidate(): void }
  /** Restores code and/or conversation to before a user message (or, `dryRun`, says what it would do). */
  rewind?: (
    messageId: string,
    scope: RewindScope,
    options: { dryRun?: boolean; includeEdited?: boolean; only?: readonly string[] },
  ) => Promise<EventOf<'rewound'> | EventOf<'rewindPreviewed'>>
  /** The working set replay rebuilds from the journal now (synced first): `includeFullHistory`. */
  replayWorkingSet?: () => Promise<Message[]>
  /** Puts back the files the last code rewind reverted. */
  undoRewind?: () => Promise<EventOf<'rewindUndone'>>
  /** Resolves `runCommand` (built-ins and prompt commands) to an action. */
  runCommand?: (name: string, args: string) => Promise<CommandAction>
  /** Runs a user `!` command in the project root; output is shown and queued for the model. */
  runShell?: (command: string) => Promise<{ output: string; exitCode: number | null }>
  /**
   * Re-reads settings and what follows them (rules, hooks, instructions, agents, skills, commands,
   * plugins, MCP servers); `trust` first records the workspace as trusted. Returns a new mode when
   * the settings changed it and the user had not.
   */
  reload?: (trust: boolean) => Promise<{ mode?: PermissionMode }>
  /** Applies or discards a worktree agent's pending changes (the GUI's buttons). */
  agentChanges?: { apply(agentId: string): Promise<void>; discard(agentId: string): Promise<void> }
  /** Called once when the session closes (jobs, watchers, language servers). */
  dispose?: () => Promise<void>
  /**
   * Removes the stored session; called at close when it holds no message (opened and closed with
   * no turn), so listings and `--continue` never offer an empty session. Absent for resumed ones.
   */
  discardIfEmpty?: () => Promise<void>
}

/** What a `runCommand` resolves to; the session carries it out. */
export type CommandAction =
  | { type: 'output'; name: string; markdown: string }
  | { type: 'notice'; level: 'info' | 'warning'; message: string }
  | { type: 'turn'; input: TurnInput }
  | { type: 'compact'; focus?: string }
  | { type: 'command'; command: Command }
  /**
   * Work that may ask the user (a plugin's consent, where a note goes): it runs as the session's
   * task, so `answerQuestion` reaches it, and its own action is carried out when it ends.
   */
  | { type: 'task'; run: (signal: AbortSignal) => Promise<CommandAction> }
