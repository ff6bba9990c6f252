import type { JsonSchema } from '@z-engine/protocol'
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv'
import { loadAjv } from '../util/load-ajv.js'
import {
  type PrecompiledValidators,
  precompiledToolValidators,
  schemaFingerprint,
  TOOL_AJV_OPTIONS,
} from './tool-validators.js'

/**
 * Validates tool input against each tool's JSON Schema. Built-in tools use validators precompiled
 * at build time (no ajv at all); other schemas (MCP tools, the Agent tool's catalog) are compiled
 * once per schema on first use.
 */
export class InputValidator {
  // Only a schema without a precompiled validator needs a compiler, made (and ajv loaded) on first use.
  #ajv: Ajv | undefined
  readonly #compiled = new WeakMap<JsonSchema, ValidateFunction>()
  readonly #given: PrecompiledValidators | undefined

  /**
   * `precompiled` defaults to the validators the build embedded (none when running from sources),
   * unpacked at the first check rather than here: the session's validator is made when its module
   * loads, and nothing before the first model request validates a tool call (issue 17).
   */
  constructor(options: { precompiled?: PrecompiledValidators } = {}) {
    this.#given = options.precompiled
  }

  get #precompiled(): PrecompiledValidators | undefined {
    return this.#given ?? precompiledToolValidators()
  }

  /** `undefined` when valid, else a message the model can act on. Loads ajv for a schema the build did not precompile. */
  async check(toolName: string, schema: JsonSchema, input: unknown): Promise<string | undefined> {
    let validate = this.#compiled.get(schema)
    if (!validate) {
      validate = this.#precompiled?.[schemaFingerprint(schema)]
      if (!validate) {
        const Ajv = await loadAjv()
        this.#ajv ??= new Ajv(TOOL_AJV_OPTIONS)
        validate = this.#ajv.compile(schema)
      }
      this.#compiled.set(schema, validate)
    }
    if (validate(input)) return undefined
    return `Invalid input for ${toolName}: ${describeErrors(validate.errors ?? [])}. Fix the input and call the tool again.`
  }
}

function describeErrors(errors: ErrorObject[]): string {
  return errors
    .map((error) => {
      const where = error.instancePath === '' ? 'input' : error.instancePath.slice(1).replaceAll('/', '.')
      if (error.keyword === 'required')
        return `missing required field '${String(error.params.missingProperty)}'`
      if (error.keyword === 'additionalProperties')
        return `unexpected field '${String(error.params.additionalProperty)}'`
      return `${where} ${error.message ?? 'is invalid'}`
    })
    .join('; ')
}
