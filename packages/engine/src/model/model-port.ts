import type { RoundModel } from './types.js'

/** Resolves a model reference to a client for the next round. */
export interface ModelPort {
  resolve(modelRef: string): { ok: true; model: RoundModel } | { ok: false; message: string }
  /** The model's context window in tokens (for the context meter). */
  contextWindow?(modelRef: string): number
  /** The models settings configure for the route seam to raise to: `model.fast`, then the main model. */
  routeLadder?(): readonly string[]
  /** The model a turn switches to when the main one stays overloaded (`model.fallback`), if any. */
  fallback?(): string | undefined
}
