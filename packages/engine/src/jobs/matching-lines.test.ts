import { describe, expect, it } from 'vitest'
import { matchingLines } from './matching-lines.js'

describe('matchingLines (JobOutput filter, shell and agent jobs)', () => {
  it('keeps the lines the pattern matches, in order', () => {
    expect(matchingLines('alpha\nbeta\nabc\n', '^a')).toBe('alpha\nabc')
  })

  it('returns the output unchanged without a filter', () => {
    expect(matchingLines('alpha\nbeta\n', undefined)).toBe('alpha\nbeta\n')
  })

  it('gives nothing when no line matches', () => {
    expect(matchingLines('alpha\nbeta', 'zzz')).toBe('')
  })
})
