import type { EventEnvelope, PermissionMode, TurnOutcome } from '@z-engine/protocol'
import { Engine, type EngineOptions } from './engine.js'

/** What `run` needs: a prompt and a folder, plus any engine or session option. */
export interface RunOptions extends EngineOptions {
  prompt: string
  cwd: string
  model?: string
  mode?: PermissionMode | 'bypassPermissions'
  resume?: string
}

/**
 * One call, one turn: opens an engine and a session, submits `prompt`, and yields every event until
 * the turn finishes (the last event is `turnFinished` with the outcome), then shuts down. Breaking out
 * of the loop cancels the turn.
 */
export async function* run(options: RunOptions): AsyncGenerator<EventEnvelope, TurnOutcome | undefined> {
  const engine = await Engine.create(options)
  try {
    const session = await engine.openSession({
      projectRoot: options.cwd,
      ...(options.model !== undefined ? { model: options.model } : {}),
      ...(options.mode !== undefined ? { mode: options.mode } : {}),
      ...(options.resume !== undefined ? { resume: options.resume } : {}),
    })
    const events = session.events()[Symbol.asyncIterator]()
    session.send({ type: 'submit', text: options.prompt })
    for (;;) {
      const next = await events.next()
      if (next.done) return undefined
      yield next.value
      if (next.value.event.type === 'turnFinished') return next.value.event.outcome
    }
  } finally {
    await engine.shutdown()
  }
}
