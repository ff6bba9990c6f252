/** The deadline on uses of one seam share: twice `decisions.timeout_ms`, plus 50 ms. */
export function sharedDeadlineMs(timeoutMs: number): number {
  return 2 * timeoutMs + 50
}

/** Resolves `undefined` after `ms` (or when `signal` aborts); the timer never keeps the process alive. */
export function expiry(ms: number, signal: AbortSignal): Promise<'timeout'> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve('timeout')
      return
    }
    const timer = setTimeout(() => resolve('timeout'), ms)
    timer.unref?.()
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        resolve('timeout')
      },
      { once: true },
    )
  })
}
