import { describe, expect, it } from 'vitest'
import { parseTestCounts } from './test-counts.js'

describe('test counts from runner output', () => {
  it.each([
    [
      'vitest',
      '\u001b[2m Test Files \u001b[22m 2 passed (2)\n      Tests  1 failed | 4 passed | 1 skipped (6)\n',
      [4, 1, 1],
    ],
    [
      'jest',
      'Test Suites: 1 failed, 1 total\nTests:       1 failed, 2 skipped, 5 passed, 8 total\n',
      [5, 1, 2],
    ],
    ['mocha', '  3 passing (12ms)\n  1 pending\n  2 failing\n', [3, 2, 1]],
    ['node:test', 'TAP version 13\n# tests 3\n# pass 2\n# fail 1\n# skipped 0\n# todo 0\n', [2, 1, 0]],
    ['pytest', '============ 3 passed, 1 failed, 2 skipped in 0.12s ============\n', [3, 1, 2]],
    ['pytest errors', '===== 1 failed, 2 passed, 1 error in 1.01s =====\n', [2, 2, 0]],
    [
      'cargo test',
      'test result: ok. 5 passed; 0 failed; 1 ignored; 0 measured\ntest result: FAILED. 1 passed; 2 failed; 0 ignored;\n',
      [6, 2, 1],
    ],
    [
      'go test -v',
      '=== RUN   TestA\n--- PASS: TestA (0.00s)\n--- FAIL: TestB (0.00s)\n    --- SKIP: TestB/x\nFAIL\n',
      [1, 1, 1],
    ],
  ])('%s', (_name, output, [passed, failed, skipped]) => {
    expect(parseTestCounts(output)).toEqual({ passed, failed, skipped })
  })

  it('guesses nothing from output without a summary', () => {
    expect(parseTestCounts('Compiling...\nok\n')).toBeUndefined()
  })
})
