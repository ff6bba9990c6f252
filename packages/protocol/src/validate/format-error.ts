import type { ErrorObject } from 'ajv'
import { tagsOf } from '../schema/builder.js'

/** Where an input failed and why, in words a user can act on. */
export interface ParseIssue {
  /** The failing location: dotted keys with `[n]` for array items, e.g. `decision.rule`; `` is the root. */
  path: string
  message: string
}

function pointerToPath(pointer: string): string[] {
  if (pointer === '') return []
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
}

function joinPath(segments: readonly string[]): string {
  let path = ''
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) path += `[${segment}]`
    else path += path === '' ? segment : `.${segment}`
  }
  return path
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`
  if (typeof value === 'object') return 'an object'
  return `${typeof value} ${String(value)}`
}

/** Turns one ajv error into a path and a message naming what was expected. */
export function formatError(error: ErrorObject, noun: string): ParseIssue {
  const segments = pointerToPath(error.instancePath)
  const params = error.params as Record<string, unknown>
  // At the root the noun says what was parsed ("unknown command type"); deeper it would mislead.
  const subject = segments.length === 0 ? `${noun} ` : ''
  switch (error.keyword) {
    case 'required':
      return {
        path: joinPath([...segments, String(params.missingProperty)]),
        message: 'is required but missing',
      }
    case 'additionalProperties':
      return {
        path: joinPath([...segments, String(params.additionalProperty)]),
        message: `is not a known ${subject}field; check the spelling`,
      }
    case 'discriminator': {
      const tags = tagsOf(error.parentSchema as never)
      const expected = tags.length > 0 ? `; expected one of: ${tags.join(', ')}` : ''
      const tagValue = params.tagValue
      const holder = error.data as Record<string, unknown>
      const problem =
        typeof tagValue === 'string'
          ? `unknown ${subject}type "${tagValue}"`
          : holder.type === undefined
            ? 'is required but missing'
            : `must be a string (got ${describe(holder.type)})`
      return { path: joinPath([...segments, 'type']), message: `${problem}${expected}` }
    }
    case 'enum':
      return {
        path: joinPath(segments),
        message: `must be one of: ${(params.allowedValues as unknown[]).join(', ')} (got ${describe(error.data)})`,
      }
    case 'const':
      return { path: joinPath(segments), message: `must be "${String(params.allowedValue)}"` }
    case 'minLength':
      return {
        path: joinPath(segments),
        message:
          params.limit === 1
            ? 'must not be empty'
            : `must be at least ${String(params.limit)} characters long`,
      }
    case 'minItems':
      return { path: joinPath(segments), message: `must have at least ${String(params.limit)} item(s)` }
    case 'type':
      return {
        path: joinPath(segments),
        message: `must be ${String(params.type)} (got ${describe(error.data)})`,
      }
    default:
      return { path: joinPath(segments), message: error.message ?? `is invalid (${error.keyword})` }
  }
}

/**
 * Picks the error worth showing: with a discriminator, the branch's own errors are the specific
 * ones, and `anyOf` noise comes after them.
 */
export function firstError(errors: readonly ErrorObject[]): ErrorObject | undefined {
  return errors.find((error) => error.keyword !== 'anyOf' && error.keyword !== 'oneOf') ?? errors[0]
}
