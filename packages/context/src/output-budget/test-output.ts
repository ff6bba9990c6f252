import { marker, plural } from './gap-marker.js'
import { fitLines } from './line-selection.js'
import { describeLogGap, takeErrors } from './log.js'
import { roundRobin } from './round-robin.js'

/** A line that starts one failure's report (vitest/jest, pytest, go, cargo, TAP, mocha). */
const FAILURE_START =
  /^\s*FAIL\s+\S|^\s*●\s+\S|^_{3,} .+ _{3,}$|^\s*--- FAIL:|^---- .+ stdout ----$|^not ok\b|^\s{1,4}\d+\) \S/

/** A line that names a failed test (a report's start, or a reporter's list entry). */
const FAILED_NAME = /^\s*(×|✗|✕|❌)\s|^FAILED\s|^ERROR\s+\S+::|^\s*❯ .+ > /

/** A run summary: counts of passed and failed tests, or the runner's verdict. */
export const TEST_SUMMARY =
  /^\s*(Test Files|Tests|Test Suites|Snapshots)\s+.*\d|^=+ .*\b(passed|failed|errors?|no tests ran)\b.*=+$|^=+ short test summary info =+$|^test result:|^(ok|FAIL)\s+\S+\s+[\d.]+s$|^(FAIL|PASS)$|^\s*\d+ (passing|failing|pending)\b|^Ran \d+ tests? in|^(FAILED|OK)\b.*\(|^# (tests|pass|fail) \d+/

/** A line inside a failure that says what was wrong: the assertion, expected/received, the error. */
const ASSERTION =
  /Assertion|assert\b|^\s*E\s|Expected|Received|expected|received|\bto(Be|Equal|StrictEqual|Match|Throw|Contain|HaveBeenCalled)|panicked at|\bleft\b:|\bright\b:|Error\b|→/

/** Where a failure happened: a source location. */
const LOCATION =
  /❯ \S+:\d+:\d+|^\s*at .*:\d+:\d+\)?$|^\S+\.py:\d+: |\S+\.(ts|tsx|js|jsx|mjs|cjs|go|rs|py|java|rb|cs|kt):\d+/

/** A separator line between failure reports. */
const SEPARATOR = /^\s*[⎯═=_─-]{10,}/

/** Shares of the budget for the run summary and the failed tests' names. */
const SUMMARY_SHARE = 0.15
const NAMES_SHARE = 0.2

/** Whether a text looks like a test runner's output (a summary line is present). */
export function looksLikeTestOutput(lines: readonly string[]): boolean {
  return lines.some((line) => TEST_SUMMARY.test(line))
}

/**
 * Test output: the run summary, the name of every failed test, each failure's assertion lines and
 * first source location, then each failure's remaining lines, and then what a log keeps (errors,
 * tail, head). Passing tests' lines go first when space runs out.
 */
export function planTestOutput(lines: readonly string[], budget: number): string {
  const blocks = failureBlocks(lines)
  return fitLines(
    lines,
    budget,
    (selection) => {
      selection.takeEach(
        indexesWhere(lines, (line) => TEST_SUMMARY.test(line)),
        Math.floor(budget * SUMMARY_SHARE),
      )
      const names = [
        ...blocks.map((block) => block.start),
        ...indexesWhere(lines, (line) => FAILED_NAME.test(line)),
      ]
      selection.takeEach(
        names.sort((a, b) => a - b),
        Math.floor(budget * NAMES_SHARE),
      )
      selection.takeEach(roundRobin(blocks.map(keyLines)))
      selection.takeEach(roundRobin(blocks.map((block) => range(block.start + 1, block.end))))
      takeErrors(selection)
      selection.takeTail(selection.remaining)
      selection.takeHead(selection.remaining)
    },
    (from, to) => describeTestGap(lines, from, to),
  )
}

interface FailureBlock {
  start: number
  /** Last line (inclusive). */
  end: number
  lines: readonly string[]
}

function failureBlocks(lines: readonly string[]): FailureBlock[] {
  const blocks: FailureBlock[] = []
  let current: FailureBlock | undefined
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    const starts = FAILURE_START.test(line)
    if (current && (starts || SEPARATOR.test(line) || TEST_SUMMARY.test(line))) {
      blocks.push(current)
      current = undefined
    }
    if (starts) current = { start: index, end: index, lines }
    else if (current) current.end = index
  }
  if (current) blocks.push(current)
  return blocks
}

/** A block's assertion lines and its first location, in order. */
function keyLines(block: FailureBlock): number[] {
  const keys: number[] = []
  let located = false
  for (let index = block.start + 1; index <= block.end; index++) {
    const line = block.lines[index]!
    if (ASSERTION.test(line)) keys.push(index)
    else if (!located && LOCATION.test(line)) {
      keys.push(index)
      located = true
    }
  }
  return keys
}

function indexesWhere(lines: readonly string[], test: (line: string) => boolean): number[] {
  const indexes: number[] = []
  for (let index = 0; index < lines.length; index++) if (test(lines[index]!)) indexes.push(index)
  return indexes
}

function range(from: number, to: number): number[] {
  const out: number[] = []
  for (let index = from; index <= to; index++) out.push(index)
  return out
}

function describeTestGap(lines: readonly string[], from: number, to: number): string {
  let passed = 0
  for (let index = from; index <= to; index++)
    if (/^\s*(✓|✔|√|PASS\b|ok\b)|\bPASSED\b/.test(lines[index]!)) passed++
  if (passed === 0) return describeLogGap(lines, from, to)
  return marker(`${plural(to - from + 1, 'line')} omitted, ${passed} of them passing tests`)
}
