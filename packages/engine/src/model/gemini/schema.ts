/**
 * JSON Schema (our tool input schemas, MCP tools' schemas) → the OpenAPI subset Gemini's
 * `FunctionDeclaration.parameters` accepts. Gemini answers 400 to keywords outside that subset, so
 * each one is converted where a faithful form exists and dropped deliberately where none does:
 *
 * - converted: `$ref` to local `$defs`/`definitions` (inlined; a cycle becomes a plain OBJECT),
 *   type arrays and `null` branches (→ `nullable`), `oneOf` (→ `anyOf`), `allOf` of objects (merged),
 *   a string `const` (→ a one-value `enum`), non-string `enum`/`const` and `exclusiveMinimum` /
 *   `exclusiveMaximum` (→ said in the description / inclusive bounds), `examples` (→ `example`),
 *   integer limits (→ the int64 strings the API declares);
 * - dropped: `additionalProperties`, `patternProperties`, `propertyNames`, `uniqueItems`, `not`,
 *   `if`/`then`/`else`, `$schema`, `$id`, `$comment`, `contentMediaType`, `readOnly`, `writeOnly`,
 *   `deprecated`, `prefixItems`, `contains`, formats Gemini does not list, `required` names that
 *   are not properties, and `properties`/`items` on nodes of another type.
 */

/** A Gemini `Schema` node (types upper-case, as the API's enum spells them). */
export interface GeminiSchema {
  type?: 'STRING' | 'NUMBER' | 'INTEGER' | 'BOOLEAN' | 'ARRAY' | 'OBJECT'
  format?: string
  title?: string
  description?: string
  nullable?: boolean
  enum?: string[]
  items?: GeminiSchema
  properties?: Record<string, GeminiSchema>
  required?: string[]
  anyOf?: GeminiSchema[]
  minimum?: number
  maximum?: number
  minItems?: string
  maxItems?: string
  minLength?: string
  maxLength?: string
  minProperties?: string
  maxProperties?: string
  pattern?: string
  default?: unknown
  example?: unknown
}

type Json = Record<string, unknown>

const TYPES: Record<string, NonNullable<GeminiSchema['type']>> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
}

/** The formats Gemini documents per type; any other format is dropped. */
const FORMATS: Partial<Record<NonNullable<GeminiSchema['type']>, readonly string[]>> = {
  STRING: ['enum', 'date-time'],
  INTEGER: ['int32', 'int64'],
  NUMBER: ['float', 'double'],
}

const INT_KEYS = ['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties'] as const

const MAX_DEPTH = 24

/**
 * A tool's `parameters`, or undefined when it takes no arguments: Gemini rejects an OBJECT with no
 * properties at the top ("properties: should be non-empty for OBJECT type").
 */
export function toGeminiParameters(inputSchema: unknown): GeminiSchema | undefined {
  const root = isObject(inputSchema) ? inputSchema : {}
  const converted = convert(root, root, new Set(), 0)
  if (converted.type !== 'OBJECT' && converted.properties === undefined) return undefined
  if (converted.properties === undefined || Object.keys(converted.properties).length === 0) return undefined
  return { ...converted, type: 'OBJECT' }
}

/** Converts one schema node (exported for tests of individual keywords). */
export function toGeminiSchema(schema: unknown): GeminiSchema {
  const root = isObject(schema) ? schema : {}
  return convert(root, root, new Set(), 0)
}

function convert(node: Json, root: Json, refs: Set<string>, depth: number): GeminiSchema {
  if (depth > MAX_DEPTH) return { type: 'OBJECT' }
  const ref = typeof node.$ref === 'string' ? node.$ref : undefined
  if (ref !== undefined) {
    const target = resolveRef(ref, root)
    // A recursive or unresolvable reference cannot be inlined: the model gets a plain object.
    if (target === undefined || refs.has(ref)) return withDescription({ type: 'OBJECT' }, node)
    const { $ref: _ref, ...siblings } = node
    return convert({ ...target, ...siblings }, root, new Set([...refs, ref]), depth + 1)
  }
  if (Array.isArray(node.allOf)) return convert(mergeAllOf(node), root, refs, depth + 1)
  const branches = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined
  if (branches !== undefined) return convertUnion(node, branches, root, refs, depth)

  const out: GeminiSchema = {}
  const types = (Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type]).filter(
    (type): type is string => typeof type === 'string',
  )
  const nonNull = types.filter((type) => type !== 'null')
  if (types.includes('null')) out.nullable = true
  if (nonNull.length > 1) {
    // `type: [a, b]` has no single-type form: a union of the plain types.
    out.anyOf = nonNull.flatMap((type) => (TYPES[type] ? [{ type: TYPES[type] }] : []))
    return withDescription(out, node)
  }
  let type = nonNull[0] !== undefined ? TYPES[nonNull[0]] : undefined
  if (type === undefined && isObject(node.properties)) type = 'OBJECT'
  if (type === undefined && node.items !== undefined) type = 'ARRAY'
  if (type !== undefined) out.type = type
  if (typeof node.title === 'string') out.title = node.title
  let description = typeof node.description === 'string' ? node.description : undefined
  const addNote = (note: string): void => {
    description = description === undefined ? note : `${description} ${note}`
  }

  const allowed = (values: unknown[]): void => {
    const present = values.filter((value) => value !== null)
    if (values.includes(null)) out.nullable = true
    if (present.length > 0 && present.every((value) => typeof value === 'string')) {
      out.enum = present as string[]
      if (out.type === undefined) out.type = 'STRING'
    } else if (present.length > 0) {
      // Gemini enums are strings only: other values are named in the description instead.
      addNote(`One of: ${present.map((value) => JSON.stringify(value)).join(', ')}.`)
    }
  }
  if (node.const !== undefined) allowed([node.const])
  else if (Array.isArray(node.enum)) allowed(node.enum)

  if (typeof node.format === 'string' && type !== undefined && FORMATS[type]?.includes(node.format))
    out.format = node.format
  if (typeof node.minimum === 'number') out.minimum = node.minimum
  if (typeof node.maximum === 'number') out.maximum = node.maximum
  // Only inclusive bounds exist: an exclusive bound becomes the inclusive one (integers step by one).
  if (typeof node.exclusiveMinimum === 'number')
    out.minimum = type === 'INTEGER' ? node.exclusiveMinimum + 1 : node.exclusiveMinimum
  if (typeof node.exclusiveMaximum === 'number')
    out.maximum = type === 'INTEGER' ? node.exclusiveMaximum - 1 : node.exclusiveMaximum
  for (const key of INT_KEYS) {
    const value = node[key]
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) out[key] = String(value)
  }
  if (typeof node.pattern === 'string' && type === 'STRING') out.pattern = node.pattern
  if (node.default !== undefined) out.default = node.default
  if (node.example !== undefined) out.example = node.example
  else if (Array.isArray(node.examples) && node.examples.length > 0) out.example = node.examples[0]

  if (type === 'OBJECT' && isObject(node.properties)) {
    const properties: Record<string, GeminiSchema> = {}
    for (const [name, value] of Object.entries(node.properties))
      properties[name] = convert(isObject(value) ? value : {}, root, refs, depth + 1)
    if (Object.keys(properties).length > 0) {
      out.properties = properties
      // Gemini rejects required names that are not among this node's properties.
      const required = Array.isArray(node.required)
        ? node.required.filter((name): name is string => typeof name === 'string' && name in properties)
        : []
      if (required.length > 0) out.required = [...new Set(required)]
    }
  }
  if (type === 'ARRAY') {
    const items = Array.isArray(node.items) ? node.items[0] : node.items
    if (isObject(items)) out.items = convert(items, root, refs, depth + 1)
  }
  if (description !== undefined) out.description = description
  return out
}

function convertUnion(
  node: Json,
  branches: unknown[],
  root: Json,
  refs: Set<string>,
  depth: number,
): GeminiSchema {
  const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = node
  const isNull = (branch: unknown): boolean =>
    isObject(branch) &&
    (branch.type === 'null' ||
      (Array.isArray(branch.enum) && branch.enum.length === 1 && branch.enum[0] === null))
  const nullable = branches.some(isNull)
  const kept = branches.filter((branch) => !isNull(branch)).map((branch) => (isObject(branch) ? branch : {}))
  if (kept.length === 1) {
    // `anyOf: [X, null]` is X, nullable; siblings of the union (description, default) still apply.
    const merged = convert({ ...kept[0], ...rest }, root, refs, depth + 1)
    return nullable ? { ...merged, nullable: true } : merged
  }
  // Gemini refuses `type` next to `anyOf`, so a typed union keeps only the union.
  const { type: _type, ...siblings } = rest
  const out = convert(siblings, root, refs, depth + 1)
  delete out.type
  out.anyOf = kept.map((branch) => convert(branch, root, refs, depth + 1))
  if (nullable) out.nullable = true
  return out
}

/** `allOf` of object schemas merged into one: properties and required lists joined, first wins. */
function mergeAllOf(node: Json): Json {
  const { allOf, ...rest } = node
  const merged: Json = { ...rest }
  const properties: Json = isObject(rest.properties) ? { ...rest.properties } : {}
  const required = new Set<string>(Array.isArray(rest.required) ? (rest.required as string[]) : [])
  for (const part of allOf as unknown[]) {
    if (!isObject(part)) continue
    if (isObject(part.properties))
      for (const [name, value] of Object.entries(part.properties)) properties[name] ??= value
    if (Array.isArray(part.required))
      for (const name of part.required) if (typeof name === 'string') required.add(name)
    for (const [key, value] of Object.entries(part))
      if (key !== 'properties' && key !== 'required') merged[key] ??= value
  }
  if (Object.keys(properties).length > 0) merged.properties = properties
  if (required.size > 0) merged.required = [...required]
  return merged
}

function resolveRef(ref: string, root: Json): Json | undefined {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref)
  if (match === null) return ref === '#' ? root : undefined
  const table = root[match[1] as string]
  if (!isObject(table)) return undefined
  const target =
    table[
      decodeURIComponent(match[2] as string)
        .replace(/~1/g, '/')
        .replace(/~0/g, '~')
    ]
  return isObject(target) ? target : undefined
}

function withDescription(out: GeminiSchema, node: Json): GeminiSchema {
  if (typeof node.description === 'string') out.description = node.description
  return out
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
