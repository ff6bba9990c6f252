import type { AnySchema } from './builder.js'

type Node = { type?: unknown; properties?: Record<string, Node>; default?: unknown }

/**
 * Collects the `default` of every property, recursing into object properties that have a default
 * (the settings sections), so defaults are written once, beside their keys.
 */
export function defaultsOf(schema: AnySchema): Record<string, unknown> {
  const result: Record<string, unknown> = {}
  for (const [key, property] of Object.entries((schema as Node).properties ?? {})) {
    if (!('default' in property)) continue
    result[key] =
      property.type === 'object' && property.properties !== undefined
        ? { ...(structuredClone(property.default) as object), ...defaultsOf(property as AnySchema) }
        : structuredClone(property.default)
  }
  return result
}
