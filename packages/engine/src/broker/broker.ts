/**
 * Where a turn waits for the user (approvals, questions, plan reviews). The session actor resolves
 * entries from commands in any order while turns wait, so cancel, steering and mode changes keep
 * working meanwhile.
 */

/** How a wait ended. */
export type BrokerOutcome<Answer> = { type: 'answered'; answer: Answer } | { type: 'cancelled' }

interface PendingEntry<Answer> {
  settle: (outcome: BrokerOutcome<Answer>) => void
}

/** Pending requests keyed by id, each answered once. */
export class Broker<Answer> {
  readonly #pending = new Map<string, PendingEntry<Answer>>()

  /** Waits for the answer to `id`; resolves `cancelled` when `signal` aborts. Never rejects. */
  wait(id: string, signal: AbortSignal): Promise<BrokerOutcome<Answer>> {
    return new Promise((resolve) => {
      if (signal.aborted) {
        resolve({ type: 'cancelled' })
        return
      }
      const onAbort = () => {
        this.#pending.delete(id)
        resolve({ type: 'cancelled' })
      }
      signal.addEventListener('abort', onAbort, { once: true })
      this.#pending.set(id, {
        settle: (outcome) => {
          signal.removeEventListener('abort', onAbort)
          this.#pending.delete(id)
          resolve(outcome)
        },
      })
    })
  }

  /** Answers a pending request; false when no request has this id (already answered or unknown). */
  resolve(id: string, answer: Answer): boolean {
    const entry = this.#pending.get(id)
    if (!entry) return false
    entry.settle({ type: 'answered', answer })
    return true
  }

  /** Ids still waiting. */
  pendingIds(): string[] {
    return [...this.#pending.keys()]
  }

  /** Cancels every pending request (session closing). */
  cancelAll(): void {
    for (const entry of [...this.#pending.values()]) entry.settle({ type: 'cancelled' })
  }
}
