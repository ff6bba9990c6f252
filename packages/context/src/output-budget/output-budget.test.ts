import { describe, expect, it } from 'vitest'
import {
  buildLog,
  gitDiff,
  pytestFailingRun,
  readOfLongFile,
  rgOutput,
  subagentReport,
  vitestFailingRun,
} from '../test-support/tool-outputs.js'
import { estimateTextTokens } from '../tokens.js'
import { DEFAULT_OUTPUT_BUDGETS, OUTPUT_CATEGORIES } from './categories.js'
import { planOutputBudget } from './plan.js'

describe('Oversized results use deterministic, provider-neutral estimated-token budgets', () => {
  it('leaves a result within its budget untouched', () => {
    const text = 'src/a.ts:1:const a = 1\nsrc/b.ts:2:const b = 2'
    expect(planOutputBudget(text, 'search')).toEqual({
      text,
      shortened: false,
      category: 'search',
      tokensBefore: estimateTextTokens(text),
      tokensAfter: estimateTextTokens(text),
    })
  })

  it('fits every category within its budget, the same way every time', () => {
    const outputs = [
      vitestFailingRun(),
      pytestFailingRun(),
      gitDiff(40),
      rgOutput(300, 4),
      buildLog(),
      readOfLongFile(),
    ]
    for (const category of OUTPUT_CATEGORIES) {
      for (const output of outputs) {
        const first = planOutputBudget(output, category)
        expect(first.shortened).toBe(true)
        expect(first.tokensAfter).toBeLessThanOrEqual(DEFAULT_OUTPUT_BUDGETS[category])
        expect(estimateTextTokens(first.text)).toBe(first.tokensAfter)
        expect(planOutputBudget(output, category)).toEqual(first)
      }
    }
  })

  it('every budget sits below the byte ceiling of 30,000 characters', () => {
    for (const category of OUTPUT_CATEGORIES)
      expect(DEFAULT_OUTPUT_BUDGETS[category] * 4).toBeLessThan(30_000)
  })
})

describe('Policies retain useful structure for tests', () => {
  it('keeps a vitest run’s failing test names, assertion lines, locations and summary', () => {
    const result = planOutputBudget(vitestFailingRun(), 'test', 1_000)
    const text = result.text
    expect(result.tokensAfter).toBeLessThanOrEqual(1_000)
    expect(text).toContain(' FAIL  src/cart/total.test.ts > cart total > applies the discount once')
    expect(text).toContain(' FAIL  src/cart/total.test.ts > cart total > rounds to cents')
    expect(text).toContain('AssertionError: expected 90 to be 81 // Object.is equality')
    expect(text).toContain('AssertionError: expected 10.004999 to be 10.01 // Object.is equality')
    expect(text).toContain(' ❯ src/cart/total.test.ts:14:30')
    expect(text).toContain(' ❯ src/cart/total.test.ts:22:31')
    expect(text).toContain('      Tests  2 failed | 902 passed (904)')
    // Passing tests and console noise are what goes.
    expect(text).not.toContain('loading fixture catalog/item-30/3.json')
    expect(text).toMatch(/\[\.\.\. \d+ lines omitted, \d+ of them passing tests \.\.\.\]/)
  })

  it('keeps a pytest failure buried among 1,500 passing tests (plain head/tail loses it)', () => {
    const output = pytestFailingRun()
    const middle = output.split('\n').findIndex((line) => line.includes('test_parse_empty FAILED'))
    expect(middle).toBeGreaterThan(700)
    const text = planOutputBudget(output, 'test', 800).text
    expect(text).toContain('tests/test_parser.py::test_parse_empty FAILED')
    expect(text).toContain('_______________________________ test_parse_empty _______________________________')
    expect(text).toContain('E       AssertionError: assert None == []')
    expect(text).toContain('tests/test_parser.py:12: AssertionError')
    expect(text).toContain(
      'FAILED tests/test_parser.py::test_parse_empty - AssertionError: assert None == []',
    )
    expect(text).toContain('======================== 1 failed, 1500 passed in 4.20s ========================')
  })

  it('shapes command output that is a test run as test output', () => {
    const result = planOutputBudget(vitestFailingRun(), 'log', 1_000)
    expect(result.category).toBe('test')
    expect(result.text).toContain('AssertionError: expected 90 to be 81 // Object.is equality')
  })
})

describe('Policies retain useful structure for search matches', () => {
  it('keeps a match from every file of rg output over many files, each with its file', () => {
    const output = rgOutput(60, 6)
    const text = planOutputBudget(output, 'search', 4_000).text
    for (let file = 0; file < 60; file++)
      expect(text).toContain(`packages/app/src/feature-${file}/handler.ts:12:`)
    // Later matches of a file go before any file loses its first.
    expect(text).not.toContain('feature-0/handler.ts:57:')
    for (const line of text.split('\n')) {
      expect(line.startsWith('packages/app/src/feature-') || line.startsWith('[... ')).toBe(true)
    }
    expect(text).toMatch(
      /\n\[\.\.\. \d lines omitted in packages\/app\/src\/feature-0\/handler\.ts \.\.\.\]\n/,
    )
  })

  it('keeps context groups whole and names the files whose matches were left out', () => {
    const groups: string[] = []
    for (let file = 0; file < 80; file++) {
      groups.push(
        `lib/mod-${file}.py-9-def handler(event):`,
        `lib/mod-${file}.py:10:    token = os.environ["API_TOKEN"]`,
        `lib/mod-${file}.py-11-    return call(token)`,
        '--',
        `lib/mod-${file}.py-39-def retry(event):`,
        `lib/mod-${file}.py:40:    token = os.environ["API_TOKEN"]`,
        `lib/mod-${file}.py-41-    return call(token, retry=True)`,
        '--',
      )
    }
    const text = planOutputBudget(['Found 160 matches', ...groups].join('\n'), 'search', 3_000).text
    expect(text.startsWith('Found 160 matches\n')).toBe(true)
    for (let file = 0; file < 15; file++) {
      const at = text.indexOf(`lib/mod-${file}.py-9-def handler(event):`)
      expect(at).toBeGreaterThanOrEqual(0)
      expect(text.slice(at)).toMatch(
        new RegExp(`^lib/mod-${file}\\.py-9-.*\\nlib/mod-${file}\\.py:10:.*\\nlib/mod-${file}\\.py-11-`),
      )
    }
    // Files whose groups did not fit whole keep their match lines.
    for (let file = 0; file < 80; file++)
      expect(text).toContain(`lib/mod-${file}.py:10:    token = os.environ["API_TOKEN"]`)
    expect(text).toMatch(/omitted in lib\/mod-\d+\.py/)
  })

  it('keeps `--heading` output’s file names above their matches', () => {
    const out: string[] = []
    for (let file = 0; file < 100; file++)
      out.push(
        `src/part-${file}.rs`,
        `${file + 3}:fn parse_${file}() -> Result<()> {`,
        `${file + 40}:    parse_${file}()?;`,
        '',
      )
    const text = planOutputBudget(out.join('\n'), 'search', 1_000).text
    expect(text).toContain('src/part-0.rs\n3:fn parse_0() -> Result<()> {')
    expect(text).toMatch(/src\/part-\d+\.rs\n\d+:fn parse_/)
  })
})

describe('Policies retain useful structure for diffs', () => {
  it('keeps every file header and hunk header of a long git diff, and whole hunks', () => {
    const output = gitDiff(30)
    const result = planOutputBudget(output, 'diff')
    const text = result.text
    for (let file = 0; file < 30; file++) {
      expect(text).toContain(`diff --git a/src/services/service-${file}.ts b/src/services/service-${file}.ts`)
      expect(text).toContain(`+++ b/src/services/service-${file}.ts`)
    }
    expect(text.match(/^@@ -10,12 \+10,14 @@/gm)?.length).toBe(30)
    expect(text.match(/^@@ -170,12 \+170,14 @@/gm)?.length).toBe(30)
    // The first file's first hunk is whole.
    const first = text.indexOf('@@ -10,12 +10,14 @@ export class Service0 {')
    expect(text.slice(first).split('\n').slice(0, 13).join('\n')).toBe(
      output.split('\n').slice(4, 17).join('\n'),
    )
    expect(text).toMatch(/\[\.\.\. 12 lines omitted \(\+6 -2\) \.\.\.\]/)
  })

  it('shapes command output that is a diff as a diff', () => {
    expect(planOutputBudget(gitDiff(30), 'log', 2_000).category).toBe('diff')
  })
})

describe('Policies retain useful structure for process logs', () => {
  it('keeps a build log’s errors in the middle plus its head and tail', () => {
    const text = planOutputBudget(buildLog(), 'log', 1_000).text
    expect(text.startsWith('> shop@1.0.0 build\n> tsc -p . && node scripts/bundle.mjs')).toBe(true)
    expect(text).toContain(
      "src/checkout/pay.ts(41,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    )
    expect(text).toContain(
      "src/checkout/pay.ts(41,7): error TS2322: Type 'string' is not assignable to type 'number'.\n      amount: request.body.amount,",
    )
    expect(text.endsWith('ELIFECYCLE Command failed with exit code 1.')).toBe(true)
    expect(text).toMatch(/\[\.\.\. \d+ lines omitted \.\.\.\]/)
  })

  it('counts left-out error lines in the marker when even they do not fit', () => {
    const lines = ['start']
    for (let index = 0; index < 400; index++)
      lines.push(`worker ${index}: error: connection refused by db-${index}.internal:5432`)
    lines.push('done')
    expect(planOutputBudget(lines.join('\n'), 'log', 300).text).toMatch(/omitted, \d+ of them mention errors/)
  })
})

describe('Policies retain useful structure for files', () => {
  it('keeps the top of a file and the outline of the rest, with the offset to read from', () => {
    const text = planOutputBudget(readOfLongFile(), 'file', 3_000).text
    expect(text.startsWith("     1\timport { Database } from './db.js'")).toBe(true)
    const outlined = [...text.matchAll(/export function step(\d+)\(input: Input\): Output \{/g)].map((m) =>
      Number(m[1]),
    )
    expect(outlined.filter((block) => block >= 100).length).toBeGreaterThanOrEqual(10)
    expect(Math.max(...outlined)).toBeGreaterThanOrEqual(140)
    expect(text).toMatch(/\[\.\.\. lines \d+-\d+ omitted; Read with offset=\d+ to see them \.\.\.\]/)
    expect(text).not.toContain('const value3 = compute(input, 149, 3)')
  })
})

describe('Policies retain useful structure for worker conclusions', () => {
  it('keeps a subagent report’s opening, headings, findings, conclusion and footer', () => {
    const text = planOutputBudget(subagentReport(), 'conclusion', 1_200).text
    expect(text.startsWith('I traced the flaky checkout test to a race in the payment mock.')).toBe(true)
    expect(text).toContain('## Findings')
    expect(text).toContain('- The mock resolves before the ledger write commits.')
    expect(text).toContain(
      'The fix is to await `ledger.flush()` in `src/checkout/pay.ts` before resolving the payment mock.',
    )
    expect(text).toContain('agent_id: agent-7f3a (pass it as `resume` to continue this agent)')
    expect(text).toContain('usage: 48211 tokens (45002 in, 3209 out)')
  })
})

describe('tools without a declared category use a UTF-8-safe head/tail fallback', () => {
  it('keeps the head and the tail in whole lines', () => {
    const lines = Array.from({ length: 2_000 }, (_, index) => `row ${index}: ${'x'.repeat(40)}`)
    const text = planOutputBudget(lines.join('\n'), 'text', 500).text
    expect(text.startsWith('row 0: ')).toBe(true)
    expect(text.endsWith(`row 1999: ${'x'.repeat(40)}`)).toBe(true)
    expect(text).toMatch(/\n\[\.\.\. \d+ lines omitted \.\.\.\]\n/)
  })

  it('cuts one giant line by characters without splitting a surrogate pair', () => {
    const text = '😀'.repeat(20_000)
    const result = planOutputBudget(text, 'text', 200)
    expect(result.tokensAfter).toBeLessThanOrEqual(200)
    expect(result.text).toMatch(/^(😀)+\n\[\.\.\. \d+ characters omitted \.\.\.\]\n(😀)+$/u)
  })
})

describe('The estimate is intentionally conservative for non-ASCII text', () => {
  it('keeps fewer CJK characters than ASCII ones in the same budget', () => {
    const cjk = Array.from({ length: 1_000 }, (_, index) => `第${index}行：测试输出内容`).join('\n')
    const ascii = Array.from({ length: 1_000 }, (_, index) => `line ${index}: test output..`).join('\n')
    const cjkResult = planOutputBudget(cjk, 'log', 500)
    const asciiResult = planOutputBudget(ascii, 'log', 500)
    expect(cjkResult.tokensAfter).toBeLessThanOrEqual(500)
    expect(cjkResult.text.length).toBeLessThan(asciiResult.text.length / 2)
  })
})
