/** The per-response retained-bytes budget, shared by every upstream round and gateway tool output. */
export class RetainedBudget {
  readonly limit: number
  #used = 0

  constructor(limit: number) {
    this.limit = limit
  }

  /** Bytes charged so far. */
  get used(): number {
    return this.#used
  }

  /** Charges growth; false once the response would hold more than the limit. Charges never refund. */
  charge(bytes: number): boolean {
    this.#used += Math.max(0, bytes)
    return this.#used <= this.limit
  }
}
