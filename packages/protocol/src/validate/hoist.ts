/**
 * Prepares a builder schema for ajv. Every nested object or union schema is registered once per
 * process under its own id and referred to by `$ref`, so ajv compiles each (a message, a usage, an
 * approval request, …) once, however many commands, events and records embed it. Our builder reuses
 * schema objects by identity, so identity is the key. Direct branches of a discriminated union stay
 * inline: ajv reads their `type` const to pick the branch.
 */
type Json = Record<string, unknown>

const DATA_KEYS = new Set(['enum', 'const', 'default', 'discriminator'])

function isNode(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function worthSharing(node: Json): boolean {
  return node.properties !== undefined || node.oneOf !== undefined
}

/** Registers a prepared sub-schema under `id` (ajv's `addSchema`). */
export type Register = (schema: Json, id: string) => void

/** Builds a `prepare` that hoists shared sub-schemas through `register`, remembering what it added. */
export function createPreparer(register: Register): (schema: object) => object {
  const ids = new Map<Json, string>()

  const reference = (node: Json): Json => {
    let id = ids.get(node)
    if (id === undefined) {
      id = `urn:z-engine:schema:${ids.size}`
      ids.set(node, id)
      register({ ...copyFields(node), $id: id }, id)
    }
    return { $ref: id }
  }

  const copy = (node: Json, inline: boolean): Json =>
    !inline && worthSharing(node) ? reference(node) : copyFields(node)

  const copyFields = (node: Json): Json => {
    const result: Json = {}
    const discriminated = node.discriminator !== undefined
    for (const [key, value] of Object.entries(node)) {
      if (DATA_KEYS.has(key)) result[key] = value
      else if (Array.isArray(value))
        result[key] = value.map((item) =>
          isNode(item) ? copy(item, discriminated && key === 'oneOf') : item,
        )
      else if (isNode(value) && key === 'properties')
        result[key] = Object.fromEntries(
          Object.entries(value).map(([name, property]) => [
            name,
            isNode(property) ? copy(property, false) : property,
          ]),
        )
      else if (isNode(value)) result[key] = copy(value, false)
      else result[key] = value
    }
    return result
  }

  return (schema) => copyFields(schema as Json)
}
