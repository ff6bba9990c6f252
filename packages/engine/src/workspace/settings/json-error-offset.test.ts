import { describe, expect, it } from 'vitest'
import { jsonErrorOffset } from './json-error-offset.js'

describe('jsonErrorOffset', () => {
  it('accepts exactly what JSON.parse accepts on a sample of documents', () => {
    const samples = [
      '{}',
      '[]',
      '{"a": [1, -2.5e3, true, false, null, "x\\"y"]}',
      ' "s" ',
      '{"a":}',
      '[1,]',
      '{"a" 1}',
      'tru',
      '01',
      '[1] 2',
      '"\u0001"',
      '',
    ]
    for (const sample of samples) {
      let valid = true
      try {
        JSON.parse(sample)
      } catch {
        valid = false
      }
      expect(jsonErrorOffset(sample) === undefined, sample).toBe(valid)
    }
  })

  it('points at the offending character', () => {
    expect(jsonErrorOffset('{"a": [,]}')).toBe(7)
    expect(jsonErrorOffset('{"a": 1,\n "b" 2}')).toBe(14)
  })
})
