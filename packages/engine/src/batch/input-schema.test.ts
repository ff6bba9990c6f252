import { describe, expect, it } from 'vitest'
import { InputValidator } from './input-schema.js'

const schema = {
  type: 'object',
  properties: { file_path: { type: 'string' }, limit: { type: 'number' } },
  required: ['file_path'],
  additionalProperties: false,
}

describe('InputValidator', () => {
  const validator = new InputValidator()
  it('accepts valid input', () => {
    expect(validator.check('Read', schema, { file_path: '/a' })).toBeUndefined()
  })
  it('names a missing field', () => {
    expect(validator.check('Read', schema, {})).toContain("missing required field 'file_path'")
  })
  it('names a wrong type with its path', () => {
    expect(validator.check('Read', schema, { file_path: '/a', limit: 'x' })).toContain('limit must be number')
  })
  it('names an unexpected field', () => {
    expect(validator.check('Read', schema, { file_path: '/a', nope: 1 })).toContain("unexpected field 'nope'")
  })
})
