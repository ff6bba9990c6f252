import { createRequire } from 'node:module'
import type { ErrorObject, Options, ValidateFunction } from 'ajv'
import type { AnySchema } from '../schema/builder.js'
import { createPreparer } from './hoist.js'
import { PRECOMPILED, type PrecompiledGroup } from './precompiled.js'

type AjvModule = typeof import('ajv')

/**
 * The ajv options of every validator, at run time and when precompiling. verbose: errors carry
 * their schema and data, so messages can list a union's known tags and show the rejected value.
 */
export const AJV_OPTIONS: Options = {
  discriminator: true,
  allErrors: true,
  verbose: true,
  strict: true,
  inlineRefs: false,
}

/** Creates an ajv instance and a `prepare` that registers shared sub-schemas on it. */
export function createCompiler(options: Options = AJV_OPTIONS) {
  // Loaded here, not imported: only sources (tests) and the generator compile schemas; the built
  // package has every validator embedded.
  const { Ajv } = createRequire(import.meta.url)('ajv') as AjvModule
  const ajv = new Ajv(options)
  return { ajv, prepare: createPreparer((schema, id) => ajv.addSchema(schema, id)) }
}

// ajv is loaded on the first validation that has no precompiled validator, never at import:
// loading it costs ~50 ms and most importers of the protocol never validate anything.
let shared: ReturnType<typeof createCompiler> | undefined

const precompiled = new Map<string, PrecompiledGroup | undefined>()

/**
 * The validators the build embedded (see `precompiled.ts`), if any: the built package validates
 * without loading or running ajv's compiler. A group's first use inflates and compiles its code
 * (25–50 ms for the commands or the settings group on a loaded machine, against ~100 ms and more
 * for ajv); groups never used cost nothing. From sources (tests) there are none and the schemas are
 * compiled on first use; both paths come from the same schemas and options.
 */
function precompiledFile(file: string): PrecompiledGroup | undefined {
  if (!precompiled.has(file)) precompiled.set(file, PRECOMPILED?.[file]?.())
  return precompiled.get(file)
}

/** Where a schema's precompiled validator lives: its file and export name. */
export interface ValidatorName {
  file: string
  name: string
}

/** A validator compiled on first use; returns the ajv errors (empty when valid). */
export type Check = (value: unknown) => readonly ErrorObject[]

/** Wraps a schema in a validator that is looked up (precompiled) or compiled the first time it runs. */
export function lazyCheck(schema: AnySchema, id?: ValidatorName): Check {
  let validate: ValidateFunction | undefined
  return (value) => {
    if (validate === undefined) {
      validate = id === undefined ? undefined : precompiledFile(id.file)?.[id.name]
      if (validate === undefined) {
        shared ??= createCompiler()
        validate = shared.ajv.compile(shared.prepare(schema))
      }
    }
    return validate(value) ? [] : (validate.errors ?? [])
  }
}

type Branch = { properties?: { type?: { const?: unknown } } }

/** The branches of a tagged union, by tag. */
export function branchesOf(union: AnySchema): Map<string, AnySchema> {
  const branches = new Map<string, AnySchema>()
  for (const branch of (union as { oneOf: readonly Branch[] }).oneOf) {
    const tag = branch.properties?.type?.const
    if (typeof tag === 'string') branches.set(tag, branch as AnySchema)
  }
  return branches
}

/**
 * A validator for a tagged union that dispatches on `type` itself and prepares only the branches it
 * meets: parsing a `submit` command never compiles the other commands' schemas. Branch validators
 * are named `<prefix>_<tag>` in the precompiled `file`, or in `<file>.<tag>` when the group is split.
 */
export function lazyUnionCheck(union: AnySchema, file: string, prefix: string): Check {
  const branches = new Map<string, Check>()
  for (const [tag, branch] of branchesOf(union)) {
    // A split group keeps each branch's validator in its own file (see `VALIDATED`).
    const own = `${file}.${tag}`
    const holder = PRECOMPILED !== undefined && own in PRECOMPILED ? own : file
    branches.set(tag, lazyCheck(branch, { file: holder, name: `${prefix}_${tag}` }))
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
