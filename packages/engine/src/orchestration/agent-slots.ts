/**
 * The chat's agent concurrency slots (`agents.max_concurrent`, spec 003): top-level and background
 * agents take one; nested foreground agents run on their caller's, so a full chat cannot deadlock
 * on its own children.
 */
export class AgentSlots {
  #free: number
  readonly #waiters: Array<() => void> = []

  constructor(size: number) {
    this.#free = Math.max(1, size)
  }

  /** A slot now, or undefined when all are taken. */
  tryAcquire(): (() => void) | undefined {
    if (this.#free === 0) return undefined
    this.#free -= 1
    return this.#releaser()
  }

  /** Waits for a slot; undefined when `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<(() => void) | undefined> {
    const now = this.tryAcquire()
    if (now) return Promise.resolve(now)
    if (signal.aborted) return Promise.resolve(undefined)
    return new Promise((resolve) => {
      const grant = () => {
        signal.removeEventListener('abort', onAbort)
        resolve(this.#releaser())
      }
      const onAbort = () => {
        const index = this.#waiters.indexOf(grant)
        if (index >= 0) this.#waiters.splice(index, 1)
        resolve(undefined)
      }
      signal.addEventListener('abort', onAbort, { once: true })
      this.#waiters.push(grant)
    })
  }

  #releaser(): () => void {
    let released = false
    return () => {
      if (released) return
      released = true
      // A freed slot goes straight to the oldest waiter.
      const next = this.#waiters.shift()
      if (next) next()
      else this.#free += 1
    }
  }
}
