import { describe, expect, it } from 'vitest'
import { provesReadOnly, READ_ONLY_COMMANDS, sedScriptIsReadOnly } from '../src/index.js'
import { readSedScript } from '../src/shell/sed-script.js'

describe('the read-only command table checks its own examples', () => {
  for (const entry of READ_ONLY_COMMANDS) {
    describe(entry.names.join(', '), () => {
      it('has examples on both sides and a summary', () => {
        expect(entry.match.length).toBeGreaterThan(0)
        expect(entry.notMatch.length).toBeGreaterThan(0)
        expect(entry.summary.length).toBeGreaterThan(10)
      })
      it.each(entry.match)('proves %j', (line) => {
        expect(provesReadOnly(line, '/proj', '/home/u')).toBe(true)
      })
      it.each(entry.notMatch)('refuses %j', (line) => {
        expect(provesReadOnly(line, '/proj', '/home/u')).toBe(false)
      })
    })
  }

  it('lists no name twice', () => {
    const names = READ_ONLY_COMMANDS.flatMap((entry) => entry.names)
    expect(new Set(names).size).toBe(names.length)
  })
})

describe('sed scripts', () => {
  it.each([
    'p',
    '1,10p',
    '$p',
    '/foo/d',
    's/a/b/',
    's/a/b/g',
    's/a\\/b/c/2',
    '1d;2d',
    'y/abc/xyz/',
    '/x/,/y/p',
    '=',
  ])('%j is read-only', (script) => expect(sedScriptIsReadOnly(script)).toBe(true))
  it.each(['w out', 's/a/b/w out', 's/a/b/e', 'e ls', 'W x', 's|a|b|w x', '1!w x', 's/a/b/;w x'])(
    '%j is not',
    (script) => expect(sedScriptIsReadOnly(script)).toBe(false),
  )
})

describe('sed scripts that read or write files', () => {
  it.each([
    ['1r /etc/passwd', { reads: ['/etc/passwd'], writes: [] }],
    ['R x', { reads: ['x'], writes: [] }],
    ['r .env;p', { reads: ['.env;p'], writes: [] }],
    ['s/a/b/w out', { reads: [], writes: ['out'] }],
    ['s|a|b|gw out', { reads: [], writes: ['out'] }],
    ['1!W x', { reads: [], writes: ['x'] }],
  ])('%j', (script, expected) => {
    const read = readSedScript(script)
    expect({ reads: read.reads, writes: read.writes }).toEqual(expected)
  })
  it.each(['e ls', 's/a/b/e', '1a text', 'v', 'k'])('%j refuses', (script) => {
    expect(readSedScript(script).refusal).toBeDefined()
  })
})
