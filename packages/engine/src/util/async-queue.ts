/**
 * An unbounded single-consumer queue exposed as an async iterator: the producer never blocks (the
 * session actor must not wait on a slow reader), the consumer awaits the next item.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  readonly #items: T[] = []
  #waiter: ((result: IteratorResult<T>) => void) | undefined
  #closed = false

  /** Adds an item; ignored after `close`. */
  push(item: T): void {
    if (this.#closed) return
    const waiter = this.#waiter
    if (waiter) {
      this.#waiter = undefined
      waiter({ value: item, done: false })
    } else this.#items.push(item)
  }

  /** Ends the iteration once queued items are consumed. */
  close(): void {
    this.#closed = true
    const waiter = this.#waiter
    this.#waiter = undefined
    waiter?.({ value: undefined, done: true })
  }

  /** Whether `close` was called. */
  get closed(): boolean {
    return this.#closed
  }

  /** Items not yet consumed. */
  get size(): number {
    return this.#items.length
  }

  /** The next item, or done when closed and drained. */
  next(): Promise<IteratorResult<T>> {
    if (this.#items.length > 0) return Promise.resolve({ value: this.#items.shift() as T, done: false })
    if (this.#closed) return Promise.resolve({ value: undefined, done: true })
    return new Promise((resolve) => {
      this.#waiter = resolve
    })
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => this.next(),
      return: () => {
        this.close()
        return Promise.resolve({ value: undefined, done: true })
      },
    }
  }
}
