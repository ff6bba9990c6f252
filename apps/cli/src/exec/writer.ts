import type { Session } from '@z-engine/engine'
import type { EventEnvelope, EventOf } from '@z-engine/protocol'
import type { PermissionDenial } from './denials.js'

/** How a run ended, for a writer's closing output. */
export interface RunSummary {
  /** Empty when the session never opened. */
  sessionId: string
  exitCode: number
  durationMs: number
  /** The main agent's last `turnFinished`, when a turn ran. */
  finished?: EventOf<'turnFinished'>
  /** Every call denied during the run (main agent and subagents), in order. */
  denials?: PermissionDenial[]
  /** Why the run failed before or outside the turn (bad option, missing key, unknown session). */
  error?: { code: string; message: string }
}

/** One output format of `exec`: sees every event, then the summary once. */
export interface ExecWriter {
  /** The session opened (before its first prompt is sent). */
  open?(session: Session): Promise<void>
  event(envelope: EventEnvelope): void
  /** The main agent's turn finished, with the exit code it earns (after its events). */
  turnEnd?(finished: EventOf<'turnFinished'>, exitCode: number): void
  end(summary: RunSummary): void
}
