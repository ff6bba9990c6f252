import fc from 'fast-check'
import { parse } from 'smol-toml'
import { describe, expect, it } from 'vitest'
import { appendToTomlArray } from './toml-append.js'

const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ():*./_-]{0,12}$/)
const comment = fc.stringMatching(/^# [a-z [\]="',]{0,20}$/)
const rules = fc.array(word, { maxLength: 4 })

/** An `allow` array written in one of the layouts people use, with comments sprinkled in. */
const allowArray = fc
  .record({
    items: rules,
    multiLine: fc.boolean(),
    trailingComma: fc.boolean(),
    comments: fc.array(comment, { maxLength: 3 }),
  })
  .map(({ items, multiLine, trailingComma, comments }) => {
    const literals = items.map((item) => JSON.stringify(item))
    if (!multiLine) return `allow = [${literals.join(', ')}]${comments[0] ? ` ${comments[0]}` : ''}`
    const lines = literals.map((literal, index) => {
      const comma = index < literals.length - 1 || trailingComma ? ',' : ''
      return `  ${literal}${comma}${comments[index] ? ` ${comments[index]}` : ''}`
    })
    return ['allow = [', ...lines, `]${comments.at(-1) ? ` ${comments.at(-1)}` : ''}`].join('\n')
  })

const section = fc.oneof(
  comment,
  fc.constant(''),
  fc.constant('[model]\nname = "m" # the model'),
  fc.constant('[context]\ncompact_at_percent = 80'),
  fc.constant('[[hooks.Stop]]\ncommand = """\nmulti [line] = "x"\n"""'),
  allowArray.map((array) => `[permissions] # perms\ndeny = ["Read(./.env)"]\n${array}`),
  fc.constant('[permissions]\nask = ["Bash(git push:*)"]'),
)

describe('appendToTomlArray (property)', () => {
  it('either appends exactly the rule keeping every comment, or changes nothing', () => {
    fc.assert(
      fc.property(fc.array(section, { maxLength: 6 }), word, (sections, rule) => {
        const text = sections.join('\n')
        let before: Record<string, unknown>
        try {
          before = parse(text) as Record<string, unknown>
        } catch {
          return // Generated a duplicate table: not a valid document to start from.
        }
        const result = appendToTomlArray(text, ['permissions'], 'allow', rule)
        if (!result.ok) throw new Error(`refused a valid document: ${result.error}\n${text}`)
        const after = parse(result.text) as { permissions?: { allow?: string[] } }
        const previous = ((before.permissions as { allow?: string[] } | undefined)?.allow ?? []) as string[]
        expect(after.permissions?.allow).toEqual(previous.includes(rule) ? previous : [...previous, rule])
        for (const line of text.split('\n')) {
          const commentAt = line.indexOf('# ')
          if (commentAt >= 0) expect(result.text).toContain(line.slice(commentAt))
        }
      }),
      { numRuns: 400 },
    )
  })
})
