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

/**
 * A server tool's input schema as the model and the batch validator will see it, or why it cannot
 * be offered. A schema that does not compile would fail every call (or, sent to a provider, the
 * whole request), so such a tool is left out with a notice instead. `$schema` is dropped: providers
 * and our validator take the draft they know.
 */
export function toolInputSchema(
  schema: unknown,
): { ok: true; schema: JsonSchema } | { ok: false; message: string } {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return { ok: false, message: 'its input schema is not an object' }
  const { $schema: _draft, ...rest } = schema as Record<string, unknown>
  if (rest.type !== 'object') return { ok: false, message: 'its input schema is not of type "object"' }
  try {
    ajv ??= newAjv(SCHEMA_CHECK_OPTIONS)
    ajv.compile(rest)
  } catch (error) {
    return { ok: false, message: `its input schema does not compile (${(error as Error).message})` }
  }
  return { ok: true, schema: rest as JsonSchema }
}
