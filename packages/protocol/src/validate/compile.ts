import { createRequire } from 'node:module'
import type { Ajv as AjvInstance, ErrorObject } from 'ajv'
import type { AnySchema } from '../schema/builder.js'
import { createPreparer } from './hoist.js'

type AjvModule = typeof import('ajv')

let shared: { ajv: AjvInstance; prepare: (schema: object) => object } | undefined

/**
 * ajv is loaded on the first validation, not at import: loading it costs ~40 ms, and most importers
 * of the protocol never validate anything. `require` keeps the parse functions synchronous.
 */
function compiler() {
  if (shared === undefined) {
    const { Ajv } = createRequire(import.meta.url)('ajv') as AjvModule
    // verbose: errors carry their schema and data, so messages can list known tags and show values.
    const ajv = new Ajv({
      discriminator: true,
      allErrors: true,
      verbose: true,
      strict: true,
      inlineRefs: false,
    })
    shared = { ajv, prepare: createPreparer((schema, id) => ajv.addSchema(schema, id)) }
  }
  return shared
}

/** A validator compiled on first use; returns the ajv errors (empty when valid). */
export type Check = (value: unknown) => readonly ErrorObject[]

/** Wraps a schema in a validator that compiles it the first time it is called. */
export function lazyCheck(schema: AnySchema): Check {
  let validate: ReturnType<AjvInstance['compile']> | undefined
  return (value) => {
    if (validate === undefined) {
      const { ajv, prepare } = compiler()
      validate = ajv.compile(prepare(schema))
    }
    return validate(value) ? [] : (validate.errors ?? [])
  }
}

type Branch = { properties?: { type?: { const?: unknown } } }

/**
 * A validator for a tagged union that dispatches on `type` itself and compiles only the branches it
 * meets: parsing a `submit` command never compiles the other twenty commands' schemas.
 */
export function lazyUnionCheck(union: AnySchema): Check {
  const branches = new Map<string, Check>()
  for (const branch of (union as { oneOf: readonly Branch[] }).oneOf) {
    const tag = branch.properties?.type?.const
    if (typeof tag === 'string') branches.set(tag, lazyCheck(branch as AnySchema))
  }
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return [syntheticError('type', { type: 'object' }, union, value)]
    }
    const tag = (value as { type?: unknown }).type
    const check = typeof tag === 'string' ? branches.get(tag) : undefined
    if (check === undefined) {
      return [syntheticError('discriminator', { error: 'mapping', tag: 'type', tagValue: tag }, union, value)]
    }
    return check(value)
  }
}

function syntheticError(
  keyword: string,
  params: Record<string, unknown>,
  schema: AnySchema,
  data: unknown,
): ErrorObject {
  return {
    keyword,
    params,
    instancePath: '',
    schemaPath: '#',
    parentSchema: schema as object,
    data,
    message: keyword,
  }
}
