/**
 * Realistic oversized tool outputs for the output-budget tests: a vitest run and a pytest run with
 * failures buried among passing tests, `git diff` over several files, ripgrep over many files, a
 * build log, a source file as Read shows it, and a subagent's report.
 */

/** `vitest run` with 2 failures among 600 passing tests and console noise. */
export function vitestFailingRun(): string {
  const out = [' RUN  v1.6.0 /home/dev/shop', '']
  for (let file = 0; file < 60; file++) {
    out.push(` ✓ src/catalog/item-${file}.test.ts (10 tests) ${file + 3}ms`)
    out.push(`stdout | src/catalog/item-${file}.test.ts > loads fixtures`)
    for (let line = 0; line < 8; line++)
      out.push(`loading fixture catalog/item-${file}/${line}.json (${line * 17} rows)`)
  }
  out.push(
    ' ❯ src/cart/total.test.ts (4 tests | 2 failed) 12ms',
    '   × src/cart/total.test.ts > cart total > applies the discount once',
    '     → expected 90 to be 81 // Object.is equality',
    '   ✓ src/cart/total.test.ts > cart total > sums line items',
    '   × src/cart/total.test.ts > cart total > rounds to cents',
    '     → expected 10.004999 to be 10.01 // Object.is equality',
    '',
    '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯',
    '',
    ' FAIL  src/cart/total.test.ts > cart total > applies the discount once',
    'AssertionError: expected 90 to be 81 // Object.is equality',
    '',
    '- Expected',
    '+ Received',
    '',
    '- 81',
    '+ 90',
    '',
    ' ❯ src/cart/total.test.ts:14:30',
    '     12|   it("applies the discount once", () => {',
    '     13|     const cart = cartWith([item(100)], { discount: 0.1 })',
    '     14|     expect(total(cart)).toBe(81)',
    '       |                              ^',
    '     15|   })',
    '',
    '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/2]⎯',
    '',
    ' FAIL  src/cart/total.test.ts > cart total > rounds to cents',
    'AssertionError: expected 10.004999 to be 10.01 // Object.is equality',
    '',
    '- Expected',
    '+ Received',
    '',
    '- 10.01',
    '+ 10.004999',
    '',
    ' ❯ src/cart/total.test.ts:22:31',
    '     20|   it("rounds to cents", () => {',
    '     21|     const cart = cartWith([item(3.335), item(6.67)])',
    '     22|     expect(total(cart)).toBe(10.01)',
    '       |                               ^',
    '     23|   })',
    '',
    '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[2/2]⎯',
    '',
  )
  for (let file = 60; file < 120; file++) {
    out.push(` ✓ src/orders/order-${file}.test.ts (5 tests) ${file}ms`)
    for (let line = 0; line < 6; line++)
      out.push(`stdout | order-${file} > step ${line}: queued job ${file * 10 + line}`)
  }
  out.push(
    '',
    ' Test Files  1 failed | 120 passed (121)',
    '      Tests  2 failed | 902 passed (904)',
    '   Start at  14:02:11',
    '   Duration  9.41s (transform 1.20s, setup 0ms, collect 3.02s, tests 4.11s)',
    '',
  )
  return out.join('\n')
}

/** `pytest` with one failure in the middle of 1,500 passing tests (verbose). */
export function pytestFailingRun(): string {
  const out = [
    '============================= test session starts ==============================',
    'platform linux -- Python 3.11.4, pytest-7.4.0, pluggy-1.2.0',
    'rootdir: /home/dev/parser',
    'collected 1501 items',
    '',
  ]
  for (let index = 0; index < 750; index++) out.push(`tests/test_lexer.py::test_token_${index} PASSED`)
  out.push('tests/test_parser.py::test_parse_empty FAILED')
  for (let index = 0; index < 750; index++) out.push(`tests/test_printer.py::test_print_${index} PASSED`)
  out.push(
    '',
    '=================================== FAILURES ===================================',
    '_______________________________ test_parse_empty _______________________________',
    '',
    '    def test_parse_empty():',
    '>       assert parse("") == []',
    'E       AssertionError: assert None == []',
    "E        +  where None = parse('')",
    '',
    'tests/test_parser.py:12: AssertionError',
    '=========================== short test summary info ============================',
    'FAILED tests/test_parser.py::test_parse_empty - AssertionError: assert None == []',
    '======================== 1 failed, 1500 passed in 4.20s ========================',
  )
  return out.join('\n')
}

/** `git diff` over `files` files, each with three hunks. */
export function gitDiff(files: number): string {
  const out: string[] = []
  for (let file = 0; file < files; file++) {
    const path = `src/services/service-${file}.ts`
    out.push(
      `diff --git a/${path} b/${path}`,
      `index 3b18e51..a9c2f7d 100644`,
      `--- a/${path}`,
      `+++ b/${path}`,
    )
    for (let hunk = 0; hunk < 3; hunk++) {
      const at = 10 + hunk * 80
      out.push(`@@ -${at},12 +${at},14 @@ export class Service${file} {`)
      out.push(
        `   private readonly cache = new Map<string, Entry>()`,
        `   constructor(private readonly db: Database) {}`,
      )
      out.push(`-  async load(id: string): Promise<Entry> {`, `-    return this.db.get(id)`)
      out.push(
        `+  async load(id: string): Promise<Entry | undefined> {`,
        `+    const cached = this.cache.get(id)`,
        `+    if (cached) return cached`,
        `+    const entry = await this.db.get(id)`,
        `+    if (entry) this.cache.set(id, entry)`,
        `+    return entry`,
      )
      out.push(
        `   }`,
        ``,
        `   async save(entry: Entry): Promise<void> {`,
        `     await this.db.put(entry.id, entry)`,
      )
    }
  }
  return out.join('\n')
}

/** `rg -n` over `files` files, `perFile` matches each. */
export function rgOutput(files: number, perFile: number): string {
  const out: string[] = []
  for (let file = 0; file < files; file++) {
    for (let match = 0; match < perFile; match++) {
      out.push(
        `packages/app/src/feature-${file}/handler.ts:${12 + match * 9}:    const token = await getAuthToken(request, { scope: "feature-${file}" })`,
      )
    }
  }
  return out.join('\n')
}

/** A build log: 3,000 lines of progress with two errors in the middle. */
export function buildLog(): string {
  const out = ['> shop@1.0.0 build', '> tsc -p . && node scripts/bundle.mjs', '']
  for (let index = 0; index < 1500; index++)
    out.push(`[bundle] transformed src/module-${index}.ts (${index % 97} kB)`)
  out.push(
    "src/checkout/pay.ts(41,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    '      amount: request.body.amount,',
  )
  for (let index = 1500; index < 3000; index++)
    out.push(`[bundle] transformed src/module-${index}.ts (${index % 89} kB)`)
  out.push(
    'Error: bundle failed with 1 error',
    '    at bundle (scripts/bundle.mjs:88:11)',
    'ELIFECYCLE Command failed with exit code 1.',
  )
  return out.join('\n')
}

/** A 3,000-line TypeScript file as Read shows it (`   n\t` prefixes). */
export function readOfLongFile(): string {
  const out: string[] = []
  let number = 1
  const push = (line: string): void => {
    out.push(`${String(number).padStart(6)}\t${line}`)
    number++
  }
  push("import { Database } from './db.js'")
  for (let block = 0; block < 150; block++) {
    push('')
    push(`/** Handles step ${block}. */`)
    push(`export function step${block}(input: Input): Output {`)
    for (let line = 0; line < 16; line++) push(`  const value${line} = compute(input, ${block}, ${line})`)
    push('  return finish(input)')
    push('}')
  }
  return out.join('\n')
}

/** A subagent's long final report followed by the Agent tool's footer. */
export function subagentReport(): string {
  const out = [
    'I traced the flaky checkout test to a race in the payment mock.',
    '',
    '## What I looked at',
    '',
  ]
  for (let index = 0; index < 400; index++)
    out.push(
      `Checked src/checkout/step-${index}.ts: the handler awaits the mock before reading state (${index} ms).`,
    )
  out.push(
    '',
    '## Findings',
    '',
    '- The mock resolves before the ledger write commits.',
    '- Retrying hides it 9 times in 10.',
  )
  for (let index = 0; index < 300; index++)
    out.push(
      `Log excerpt ${index}: ledger write ${index} committed after mock resolution by ${index % 7} ms.`,
    )
  out.push(
    '',
    '## Conclusion',
    '',
    'The fix is to await `ledger.flush()` in `src/checkout/pay.ts` before resolving the payment mock.',
    '',
    '---',
    'agent_id: agent-7f3a (pass it as `resume` to continue this agent)',
    'usage: 48211 tokens (45002 in, 3209 out)',
  )
  return out.join('\n')
}
