/**
 * A tiny JSON Schema builder whose TypeScript types are inferred from the schemas, so every shape is
 * written once. It exists instead of TypeBox because loading TypeBox's 266 ESM modules costs about
 * 80–110 ms, and every process that touches the protocol (the CLI's first request must leave within
 * 150 ms) would pay it. The schemas are plain JSON data: ajv compiles them, docs can print them.
 *
 * The phantom `STATIC` property carries the TS type; nothing of it exists at run time.
 */

declare const STATIC: unique symbol
declare const HAS_DEFAULT: unique symbol
declare const REQUIRED: unique symbol
declare const OPTIONAL: unique symbol

/** A JSON Schema object whose instances have type `T`. */
export interface Schema<T> {
  readonly [STATIC]?: T
}

/** A schema that carries a `default` (settings keys); resolved settings treat the key as present. */
export interface DefaultedSchema<T> extends Schema<T> {
  readonly [HAS_DEFAULT]: true
}

/** Any schema. */
// biome-ignore lint/suspicious/noExplicitAny: the variance hole that lets any schema be accepted
export type AnySchema = Schema<any>

type Props = Readonly<Record<string, AnySchema>>

/** An object schema, remembering its required and optional property schemas for inference. */
export interface ObjectSchema<R extends Props, O extends Props> extends Schema<InferObject<R, O>> {
  readonly type: 'object'
  readonly properties: R & O
  readonly [REQUIRED]?: R
  readonly [OPTIONAL]?: O
}

type Simplify<T> = { [K in keyof T]: T[K] } & {}

type InferObject<R extends Props, O extends Props> = Simplify<
  { -readonly [K in keyof R]: Infer<R[K]> } & { -readonly [K in keyof O]?: Infer<O[K]> }
>

/** The TypeScript type of a schema's instances (optional keys stay optional). */
export type Infer<S> = S extends Schema<infer T> ? T : never

type ResolveObject<R extends Props, O extends Props> = Simplify<
  { -readonly [K in keyof R]: Resolved<R[K]> } & {
    -readonly [K in keyof O as O[K] extends DefaultedSchema<unknown> ? K : never]-?: Resolved<O[K]>
  } & {
    -readonly [K in keyof O as O[K] extends DefaultedSchema<unknown> ? never : K]?: Resolved<O[K]>
  }
>

/**
 * The type after defaults are applied: optional keys whose schema has a default become required,
 * recursively through objects (not through arrays or records, whose entries are user data).
 */
export type Resolved<S> = S extends {
  readonly [REQUIRED]?: infer R extends Props
  readonly [OPTIONAL]?: infer O extends Props
}
  ? ResolveObject<R, O>
  : Infer<S>

type Annotations = { description?: string }

/** A string; `pattern`, `minLength`, `maxLength` as in JSON Schema. */
export function str(
  options: Annotations & { minLength?: number; maxLength?: number; pattern?: string } = {},
) {
  return { type: 'string', ...options } as Schema<string>
}

/** A string constant (used for `type` tags). */
export function lit<const V extends string>(value: V) {
  return { type: 'string', const: value } as Schema<V>
}

/** One of the given strings. */
export function enums<const V extends readonly string[]>(values: V, options: Annotations = {}) {
  return { type: 'string', enum: values, ...options } as Schema<V[number]>
}

/** A number, with optional bounds. */
export function num(options: Annotations & { minimum?: number; maximum?: number } = {}) {
  return { type: 'number', ...options } as Schema<number>
}

/** An integer, with optional bounds. */
export function int(options: Annotations & { minimum?: number; maximum?: number } = {}) {
  return { type: 'integer', ...options } as Schema<number>
}

/** A boolean. */
export function bool(options: Annotations = {}) {
  return { type: 'boolean', ...options } as Schema<boolean>
}

/** JSON null. */
export function nul() {
  return { type: 'null' } as Schema<null>
}

/** Any JSON value. */
export function unknown(options: Annotations = {}) {
  return { ...options } as Schema<unknown>
}

/** A JSON object with any properties (e.g. a tool's input). */
export function anyObject(options: Annotations = {}) {
  return { type: 'object', ...options } as Schema<Record<string, unknown>>
}

/** An array of one item schema. */
export function arr<S extends AnySchema>(items: S, options: Annotations & { minItems?: number } = {}) {
  return { type: 'array', items, ...options } as unknown as Schema<Infer<S>[]>
}

/** A map from string keys to one value schema. */
export function record<S extends AnySchema>(values: S, options: Annotations = {}) {
  return { type: 'object', additionalProperties: values, ...options } as unknown as Schema<
    Record<string, Infer<S>>
  >
}

/** Either the schema or null. */
export function nullable<S extends AnySchema>(inner: S) {
  return { anyOf: [inner, { type: 'null' }] } as unknown as Schema<Infer<S> | null>
}

/** Any of the members (no discriminator; use `tagged` for unions on `type`). */
export function anyOf<const M extends readonly AnySchema[]>(members: M, options: Annotations = {}) {
  return { anyOf: members, ...options } as unknown as Schema<Infer<M[number]>>
}

/**
 * An object with `required` and `optional` properties. Objects are closed (`additionalProperties:
 * false`) so a misspelt field is reported at its path; pass `open: true` where newer writers may add
 * fields an older reader must tolerate.
 */
export function obj<R extends Props, O extends Props = {}>(
  required: R,
  optional?: O,
  options: Annotations & { open?: boolean } = {},
): ObjectSchema<R, O> {
  const { open, ...annotations } = options
  const requiredKeys = Object.keys(required)
  return {
    type: 'object',
    // Required fields first; a key in both stays required with its required schema.
    properties: {
      ...required,
      ...Object.fromEntries(Object.entries(optional ?? {}).filter(([key]) => !(key in required))),
    },
    ...(requiredKeys.length > 0 ? { required: requiredKeys } : {}),
    ...(open === true ? {} : { additionalProperties: false }),
    ...annotations,
  } as unknown as ObjectSchema<R, O>
}

/** An object tagged by a constant `type` and any other fields. */
export function variant<const T extends string, R extends Props = {}, O extends Props = {}>(
  type: T,
  required?: R,
  optional?: O,
  options: Annotations & { open?: boolean } = {},
) {
  return obj({ type: lit(type), ...(required ?? ({} as R)) }, optional ?? ({} as O), options)
}

/**
 * A discriminated union on `type`. ajv's `discriminator` keyword picks the branch by tag, so errors
 * name the failing field of that branch instead of listing every branch's complaint.
 */
export function tagged<const M extends readonly AnySchema[]>(members: M, options: Annotations = {}) {
  return {
    type: 'object',
    discriminator: { propertyName: 'type' },
    oneOf: members,
    ...options,
  } as unknown as Schema<Infer<M[number]>>
}

/** Marks a schema with a default value (documentation, and resolved settings types). */
export function withDefault<S extends AnySchema>(inner: S, value: Infer<S>) {
  return { ...inner, default: value } as unknown as S & DefaultedSchema<Infer<S>>
}

/** The `type` tags of a `tagged` union, read from its branches (for docs and tests). */
export function tagsOf(union: AnySchema): string[] {
  const branches = (union as { oneOf?: readonly { properties?: { type?: { const?: unknown } } }[] }).oneOf
  return (branches ?? []).flatMap((branch) => {
    const tag = branch.properties?.type?.const
    return typeof tag === 'string' ? [tag] : []
  })
}

/** Adds a one-line `description` (docs/protocol.md is rendered from these). */
export function described<S extends AnySchema>(description: string, schema: S): S {
  return { ...schema, description } as S
}
