import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { InputValidator } from './input-schema.js'
import { builtinToolSchemas, type PrecompiledValidators, schemaFingerprint } from './tool-validators.js'

const schema = {
  type: 'object',
  properties: { file_path: { type: 'string' }, limit: { type: 'number' } },
  required: ['file_path'],
  additionalProperties: false,
}

describe('InputValidator', () => {
  const validator = new InputValidator()
  it('accepts valid input', async () => {
    expect(await validator.check('Read', schema, { file_path: '/a' })).toBeUndefined()
  })
  it('names a missing field', async () => {
    expect(await validator.check('Read', schema, {})).toContain("missing required field 'file_path'")
  })
  it('names a wrong type with its path', async () => {
    expect(await validator.check('Read', schema, { file_path: '/a', limit: 'x' })).toContain(
      'limit must be number',
    )
  })
  it('names an unexpected field', async () => {
    expect(await validator.check('Read', schema, { file_path: '/a', nope: 1 })).toContain(
      "unexpected field 'nope'",
    )
  })
})

describe('precompiled tool validators', () => {
  it('cover every built-in tool and judge inputs exactly as ajv compiled at run time does', async () => {
    const { generateToolValidators } = await import('../../scripts/generate-tool-validators.js')
    const dir = mkdtempSync(join(tmpdir(), 'ze-validators-'))
    try {
      const file = join(dir, 'tool-validators.cjs')
      writeFileSync(file, generateToolValidators())
      const precompiled = createRequire(import.meta.url)(file) as PrecompiledValidators
      const fast = new InputValidator({ precompiled })
      const compiled = new InputValidator({ precompiled: {} })
      const schemas = builtinToolSchemas()
      expect(schemas.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['Read', 'Edit', 'Bash', 'Agent']),
      )
      const inputs = [
        {},
        { file_path: '/a' },
        { file_path: 3 },
        { command: 'ls', description: 'list' },
        { file_path: '/a', old_string: 'x', new_string: 'y', extra: true },
        'not an object',
      ]
      for (const { name, schema } of schemas) {
        expect(precompiled[schemaFingerprint(schema)], name).toBeTypeOf('function')
        for (const input of inputs)
          expect(await fast.check(name, schema, input)).toBe(await compiled.check(name, schema, input))
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
