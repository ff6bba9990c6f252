/**
 * Limits progress events to about twenty a second per call (spec 001 batch/progress): updates
 * arriving faster are merged, and the latest is delivered at the next slot or on `flush`.
 */
export interface ProgressUpdate {
  message?: string
  output?: string
}

/** A throttled sink; `flush` delivers a pending update at once (call it before toolFinished). */
export interface ProgressThrottle {
  push(update: ProgressUpdate): void
  flush(): void
}

/** Minimum gap between two delivered updates. */
export const PROGRESS_INTERVAL_MS = 50

/** Creates a throttle that delivers to `deliver`; `now` is injectable for tests. */
export function createProgressThrottle(
  deliver: (update: ProgressUpdate) => void,
  now: () => number = Date.now,
): ProgressThrottle {
  let lastDelivered = Number.NEGATIVE_INFINITY
  let pending: ProgressUpdate | undefined
  let timer: NodeJS.Timeout | undefined

  const deliverPending = () => {
    if (timer) clearTimeout(timer)
    timer = undefined
    if (!pending) return
    const update = pending
    pending = undefined
    lastDelivered = now()
    deliver(update)
  }

  return {
    push(update) {
      // Output is a stream of chunks: concatenate; a message replaces the previous one.
      const output = (pending?.output ?? '') + (update.output ?? '')
      const message = update.message ?? pending?.message
      pending = { ...(message !== undefined ? { message } : {}), ...(output !== '' ? { output } : {}) }
      const wait = lastDelivered + PROGRESS_INTERVAL_MS - now()
      if (wait <= 0) deliverPending()
      else if (!timer) {
        timer = setTimeout(deliverPending, wait)
        timer.unref?.()
      }
    },
    flush: deliverPending,
  }
}
