import type { NewItem } from '../storage/types.js'
import type { GatewayError } from '../wire/errors.js'
import { newId } from '../wire/ids.js'
import type { JsonObject } from '../wire/json.js'
import { prefixFor } from './items.js'
import type { TurnItem } from './turn-output.js'

/** Now, in the Unix seconds the API's `created_at` fields use. */
export function now(): number {
  return Math.floor(Date.now() / 1000)
}

/** Gives an item an id (clients may send items without one). */
export function withId(item: JsonObject): JsonObject {
  return typeof item.id === 'string' && item.id !== ''
    ? item
    : { ...item, id: newId(prefixFor(String(item.type))) }
}

/** Turn items as storage rows, each with an id. */
export function newItems(entries: TurnItem[]): NewItem[] {
  return entries.map(({ item, visibility }) => {
    const identified = withId(item)
    return { id: String(identified.id), visibility, item: identified }
  })
}

/** A 409: storage moved on while the turn ran, or the history is too long to rehydrate. */
export function conflict(message: string): GatewayError {
  return { status: 409, type: 'conflict_error', message, code: 'conflict' }
}
