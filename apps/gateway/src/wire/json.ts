/** JSON values as the wire carries them; items stay open records so unknown fields pass through. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** A JSON object whose unknown fields are kept as they came. */
export type JsonObject = { [key: string]: Json }

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The UTF-8 size of a value's JSON text: the unit every byte budget counts in. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8')
}
