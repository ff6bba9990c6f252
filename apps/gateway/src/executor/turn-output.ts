/**
 * What a turn has produced so far: its items in order with who each is for (the client's output, the
 * model's history, or both), and the public output indexes handed out as items appear.
 */
import type { JsonObject } from '../wire/json.js'
import { toInputItem } from './items.js'

/** An item of this turn with who it is for (public output, model history, or both). */
export interface TurnItem {
  item: JsonObject
  visibility: 'both' | 'public' | 'model'
}

/** The turn's items and public output. */
export class TurnOutput {
  /** Every item of the turn, the request's input first. */
  readonly items: TurnItem[]
  readonly #public: Array<{ index: number; item: JsonObject }> = []
  #nextIndex = 0

  constructor(input: JsonObject[]) {
    this.items = input.map((item) => ({ item, visibility: 'both' }))
  }

  /** The next public `output_index`. */
  nextIndex(): number {
    return this.#nextIndex++
  }

  /** An item of the public output at `index`: for the model too (`both`), or only for the client. */
  addPublic(index: number, item: JsonObject, visibility: 'both' | 'public'): void {
    this.#public.push({ index, item })
    this.items.push({ item, visibility })
  }

  /** An item only the model sees (a gateway call and its output). */
  addModel(item: JsonObject): void {
    this.items.push({ item, visibility: 'model' })
  }

  /** This turn's items as the next round's input (the model-visible ones, converted). */
  modelInput(): JsonObject[] {
    const input: JsonObject[] = []
    for (const entry of this.items) {
      if (entry.visibility === 'public') continue
      const converted = toInputItem(entry.item)
      if (converted) input.push(converted)
    }
    return input
  }

  /** The public output in `output_index` order. */
  output(): JsonObject[] {
    return this.#public.sort((a, b) => a.index - b.index).map((entry) => entry.item)
  }
}
