/** Why a round's upstream request is released (one reason for all: an abort builds no exception each time). */
const ROUND_ENDED = new Error('the round ended')

/** One round's abort signal and how to end it. */
export interface RoundSignal {
  /** Aborts when the response's signal does, or when the round ends. */
  readonly signal: AbortSignal
  /** Releases the round's upstream request (a body already read in full keeps its socket). */
  end(): void
}

/**
 * A round's signal that follows the response's: a listener on the parent rather than
 * `AbortSignal.any`, which Node makes a dependent-signal registry entry and weak references for on
 * every round (issue 37's load profile).
 */
export function roundSignal(parent: AbortSignal): RoundSignal {
  const controller = new AbortController()
  const follow = (): void => controller.abort(parent.reason)
  if (parent.aborted) follow()
  else parent.addEventListener('abort', follow, { once: true })
  return {
    signal: controller.signal,
    end: () => {
      parent.removeEventListener('abort', follow)
      controller.abort(ROUND_ENDED)
    },
  }
}
