/** Detached shadow uses a session runs at once (spec 000 "Decision seams"). */
export const MAX_SHADOW_SLOTS = 4

/** The session's shadow slots: a use takes one while it runs; with none free it is skipped and counted. */
export class ShadowSlots {
  #busy = 0
  #skipped = 0

  constructor(private readonly size = MAX_SHADOW_SLOTS) {}

  /** Takes a slot; false when all are busy (the caller skips the use). */
  take(): boolean {
    if (this.#busy >= this.size) {
      this.#skipped += 1
      return false
    }
    this.#busy += 1
    return true
  }

  release(): void {
    this.#busy = Math.max(0, this.#busy - 1)
  }

  /** Shadow uses running now. */
  get busy(): number {
    return this.#busy
  }

  /** Shadow uses skipped so far because every slot was busy. */
  get skipped(): number {
    return this.#skipped
  }
}
