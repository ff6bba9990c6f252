import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { analyzeLine, lexShell, provesReadOnly } from '../src/index.js'
import { cpuMillis } from './cpu-time.js'
import { bash, context } from './helpers.js'

const SEEDS = [
  'ls -la src',
  'cat README.md | grep x | wc -l',
  "sed -n '1,5p' a.ts",
  'git log --oneline -5',
  'find . -name "*.ts"',
  'echo "$(date)"',
  "awk '{print $1}' x",
  'cat <<EOF\nhi\nEOF',
  'cd src && ls',
  "bash -c 'ls'",
]
const SNIPPETS = [
  '$(',
  '`',
  "'",
  '"',
  '\\',
  '<<',
  '>',
  '>>',
  '|',
  '&&',
  ';',
  '(',
  ')',
  '{',
  '}',
  '$((',
  '${',
  "$'",
  '\n',
  '#',
  ' rm -rf / ',
  '<(',
  '-i',
  ' -exec ',
  '2>&1',
  '*',
  '~',
]

const mutated = fc
  .tuple(
    fc.constantFrom(...SEEDS),
    fc.array(fc.tuple(fc.nat(), fc.constantFrom(...SNIPPETS)), { maxLength: 4 }),
  )
  .map(([seed, edits]) =>
    edits.reduce((line, [at, snippet]) => {
      const index = at % (line.length + 1)
      return line.slice(0, index) + snippet + line.slice(index)
    }, seed),
  )

const lines = fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 100 }), mutated)

describe('property: the lexer and the policy on random and mutated lines', () => {
  it('never throw', () => {
    fc.assert(
      fc.property(lines, (line) => {
        lexShell(line)
        analyzeLine(line, '/proj', '/home/u')
        bash(line)
        bash(line, context('plan'))
      }),
      { numRuns: 3000 },
    )
  })

  it('nothing the lexer flags as incomplete is proven read-only or allowed', () => {
    fc.assert(
      fc.property(lines, (line) => {
        if (lexShell(line).complete) return
        expect(provesReadOnly(line, '/proj', '/home/u')).toBe(false)
        expect(bash(line).decision).not.toBe('allow')
        expect(bash(line, context('acceptEdits', { allow: ['Bash(ls:*)'] })).decision).not.toBe('allow')
        expect(bash(line, context('plan')).decision).toBe('deny')
      }),
      { numRuns: 3000 },
    )
  })

  it('chaining a destructive command after anything is never allowed by a prefix rule', () => {
    const ctx = context('default', { allow: ['Bash(npm test:*)', 'Bash(ls:*)'] })
    fc.assert(
      fc.property(lines, fc.constantFrom('&&', ';', '||', '|', '\n', '&'), (line, op) => {
        // A comment swallows the rest of its line: the rm would really not run.
        if (line.includes('#')) return
        expect(bash(`${line} ${op} rm -rf ~`, ctx).decision).not.toBe('allow')
      }),
      { numRuns: 2000 },
    )
  })
})

describe('property: rules, URLs and paths from users never throw', () => {
  it('parseRule, buildRuleSet, admitUrl, admitAddress and file decisions', async () => {
    const { admitAddress, admitUrl, buildRuleSet, decide, parseRule } = await import('../src/index.js')
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), fc.string({ maxLength: 120 }), (text, path) => {
        parseRule(text, 'fuzz')
        parseRule(`Read(${text})`, 'fuzz')
        parseRule(`Bash(${text})`, 'fuzz')
        admitUrl(text)
        admitUrl(`http://${text}/`)
        admitAddress(text)
        const rules = buildRuleSet([
          { source: 'fuzz', deny: [`Read(${text})`], allow: [`Edit(${text})`, text] },
        ])
        const ctx = { ...context(), rules }
        expect(['allow', 'ask', 'deny']).toContain(decide({ type: 'read', paths: [path] }, ctx).decision)
        expect(['allow', 'ask', 'deny']).toContain(
          decide({ type: 'write', paths: [`/proj/${path}`] }, ctx).decision,
        )
        expect(decide({ type: 'fetch', url: text }, context('bypass')).decision).not.toBe(
          admitUrl(text).ok ? 'deny' : 'allow',
        )
      }),
      { numRuns: 2000 },
    )
  })

  it('huge actions stay bounded', async () => {
    const { decide } = await import('../src/index.js')
    const paths = Array.from({ length: 10_000 }, (_, index) => `/proj/src/file-${index}.ts`)
    const spent = cpuMillis(() => {
      expect(decide({ type: 'write', paths }, context('acceptEdits')).decision).toBe('allow')
      expect(
        decide({ type: 'write', paths: [...paths, '/proj/.git/config'] }, context('acceptEdits')).decision,
      ).toBe('ask')
      expect(
        decide({ type: 'fetch', url: `https://example.com/${'a'.repeat(1_000_000)}` }, context()).decision,
      ).toBe('ask')
      expect(decide({ type: 'read', paths: [] }, context()).decision).toBe('allow')
    })
    expect(spent).toBeLessThan(3000)
  })
})
