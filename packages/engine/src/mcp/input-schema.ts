import type { JsonSchema } from '@z-engine/protocol'
import type { Ajv, Options } from 'ajv'
import { newAjv } from '../util/load-ajv.js'

let ajv: Ajv | undefined
/** Only whether a schema compiles matters here. */
const SCHEMA_CHECK_OPTIONS: Options = {
  allErrors: false,
  strict: false,
  coerceTypes: false,
  validateFormats: false,
  logger: false,
}

/** A checked input schema, or why it cannot be offered. */
export type ToolSchemaCheck = { ok: true; schema: JsonSchema } | { ok: false; message: string }

/**
 * A tool's input schema as the model and the batch validator will see it, judged by its shape
 * alone (no ajv): an object of type "object". `$schema` is dropped: providers and our validator
 * take the draft they know.
 */
export function toolSchemaShape(schema: unknown): ToolSchemaCheck {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return { ok: false, message: 'its input schema is not an object' }
  const { $schema: _draft, ...rest } = schema as Record<string, unknown>
  if (rest.type !== 'object') return { ok: false, message: 'its input schema is not of type "object"' }
  return { ok: true, schema: rest as JsonSchema }
}

/**
 * A server tool's input schema, or why it cannot be offered. A schema that does not compile would
 * fail every call (or, sent to a provider, the whole request), so such a tool is left out with a
 * notice instead. Needs ajv loaded (`loadAjv()`, awaited when a server connects or a tool is given).
 */
export function toolInputSchema(schema: unknown): ToolSchemaCheck {
  const shape = toolSchemaShape(schema)
  if (!shape.ok) return shape
  try {
    ajv ??= newAjv(SCHEMA_CHECK_OPTIONS)
    ajv.compile(shape.schema)
  } catch (error) {
    return { ok: false, message: `its input schema does not compile (${(error as Error).message})` }
  }
  return shape
}
