import type { Command, RewindScope } from '@z-engine/protocol'
import type { JobPort } from '@z-engine/tools'
import type { EventHub } from './event-hub.js'
import type { SessionServices } from './services.js'
import type { SessionState } from './state.js'
import type { TurnInput } from './turn.js'

/** Limits a session enforces (settings `agents.*`). */
export interface SessionLimits {
  maxTurns: number
  costCapUsd: number
  maxOutputTokens: number
  maxConcurrency: number
}

/** What a session is built from; the Engine assembles it. */
export interface SessionInit {
  id: string
  projectRoot: string
  state: SessionState
  services: SessionServices
  hub: EventHub
  limits: SessionLimits
  newId(prefix: string): string
  extensions?: SessionExtensions
}

/** Engine services some commands need beyond the session's own (absent in bare test sessions). */
export interface SessionExtensions {
  compaction?: { compactNow(focus?: string): Promise<void> }
  gate?: { setTurnRules(rules: readonly string[]): void; addDirectory(directory: string): void }
  jobs?: JobPort
  system?: { invalidate(): void }
  /** Restores code and/or conversation to before a user message; returns restored files. */
  rewind?: (messageId: string, scope: RewindScope) => Promise<{ restoredFiles: string[] }>
  /** Resolves `runCommand` (built-ins and prompt commands) to an action. */
  runCommand?: (name: string, args: string) => Promise<CommandAction>
  /** Runs a user `!` command in the project root; output is shown and queued for the model. */
  runShell?: (command: string) => Promise<{ output: string; exitCode: number | null }>
  /** Re-reads settings (rules, hooks, instructions); `trust` first records the workspace as trusted. */
  reload?: (trust: boolean) => Promise<void>
  /** Applies or discards a worktree agent's pending changes (the GUI's buttons). */
  agentChanges?: { apply(agentId: string): Promise<void>; discard(agentId: string): Promise<void> }
  /** Called once when the session closes (jobs, watchers, language servers). */
  dispose?: () => Promise<void>
}

/** What a `runCommand` resolves to; the session carries it out. */
export type CommandAction =
  | { type: 'output'; name: string; markdown: string }
  | { type: 'notice'; level: 'info' | 'warning'; message: string }
  | { type: 'turn'; input: TurnInput }
  | { type: 'compact'; focus?: string }
  | { type: 'command'; command: Command }

/** A distributive Omit, so a union of records keeps its variants. */
export type RecordBody<R> = R extends unknown ? Omit<R, 'id' | 'at'> : never
