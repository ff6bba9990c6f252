import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { simpleMapping } from './frontmatter.js'

/** The YAML-free reader must give exactly what YAML gives, or step aside. */
describe('simpleMapping', () => {
  const same = [
    'name: reviewer\ndescription: Reviews code, carefully\ntools: Read, Grep, Bash(git diff *)',
    'description: "Use when: the tests fail"\nmodel: sonnet\ncolor: \'blue\'',
    'name: a\r\n\r\n# a comment\r\ndescription: it\'s "fine" & good | ok > yes',
    "argument-hint: 'file'\nallowed-tools: Bash(git status:*)",
    'description: "C# tips"\nname: x_y-z   ',
  ]
  it.each(same)('matches YAML for %j', (header) => {
    const fast = simpleMapping(header)
    if (fast !== undefined) expect(fast).toEqual(parse(header))
  })
  it('reads the common shapes itself', () => {
    for (const header of [same[0]!, same[1]!, same[2]!, same[4]!]) expect(simpleMapping(header)).toBeDefined()
  })
  it.each([
    'maxTurns: 25',
    'background: true',
    'memory: Null',
    'tools: [Read, Grep]',
    'tools:\n  - Read',
    'description: a: b',
    'description: text # comment',
    'description: >\n  folded',
    'name: a\nname: b',
    'description: "escaped \\" quote"',
    "description: 'it''s'",
    'description: first line\n  continued',
    'hooks:\n  PreToolUse: []',
    'model: .inf',
    'name: ~',
  ])('leaves %j to YAML', (header) => {
    expect(simpleMapping(header)).toBeUndefined()
  })
})
