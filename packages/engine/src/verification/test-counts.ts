import { stripVTControlCharacters } from 'node:util'

/** Test counts read from a check's output. */
export interface TestCounts {
  passed: number
  failed: number
  skipped: number
}

type Parser = (text: string) => TestCounts | undefined

/**
 * Reads the test counts a runner printed: vitest, jest, mocha, node:test, pytest, cargo test and
 * go test, in that order of trust (the first runner whose summary is found wins). Undefined when no
 * summary is recognized; counts are never guessed from a partial line.
 */
export function parseTestCounts(output: string): TestCounts | undefined {
  const text = stripVTControlCharacters(output)
  for (const parser of PARSERS) {
    const counts = parser(text)
    if (counts !== undefined) return counts
  }
  return undefined
}

/** `n label` pairs in a summary fragment, by label. */
function pairs(fragment: string): Map<string, number> {
  const counts = new Map<string, number>()
  for (const match of fragment.matchAll(/(\d+)\s+([a-z]+)/gi)) {
    const label = (match[2] ?? '').toLowerCase()
    counts.set(label, (counts.get(label) ?? 0) + Number(match[1]))
  }
  return counts
}

function sum(counts: Map<string, number>, labels: readonly string[]): number {
  return labels.reduce((total, label) => total + (counts.get(label) ?? 0), 0)
}

/** vitest: ` Tests  1 failed | 4 passed | 1 skipped (6)` (the last summary, for watch reruns). */
const vitest: Parser = (text) => {
  const line = [...text.matchAll(/^\s*Tests\s{2,}(.+?)\s*\(\d+\)\s*$/gm)].at(-1)?.[1]
  if (line === undefined) return undefined
  const counts = pairs(line)
  return {
    passed: sum(counts, ['passed']),
    failed: sum(counts, ['failed']),
    skipped: sum(counts, ['skipped', 'todo']),
  }
}

/** jest: `Tests:       1 failed, 2 skipped, 5 passed, 8 total`. */
const jest: Parser = (text) => {
  const line = [...text.matchAll(/^\s*Tests:\s+(.+total)\s*$/gm)].at(-1)?.[1]
  if (line === undefined) return undefined
  const counts = pairs(line)
  return {
    passed: sum(counts, ['passed']),
    failed: sum(counts, ['failed']),
    skipped: sum(counts, ['skipped', 'todo', 'pending']),
  }
}

/** mocha: `  5 passing (12ms)`, `  2 failing`, `  1 pending`. */
const mocha: Parser = (text) => {
  const passing = text.match(/^\s*(\d+) passing \(\d+(?:\.\d+)?m?s\)\s*$/m)
  if (!passing) return undefined
  return {
    passed: Number(passing[1]),
    failed: Number(text.match(/^\s*(\d+) failing\s*$/m)?.[1] ?? 0),
    skipped: Number(text.match(/^\s*(\d+) pending\s*$/m)?.[1] ?? 0),
  }
}

/** node:test (TAP or spec reporter): `# pass 3`, `# fail 0`, `# skipped 1` (or `ℹ pass 3`). */
const nodeTest: Parser = (text) => {
  const count = (label: string) => text.match(new RegExp(`^(?:#|ℹ) ${label} (\\d+)\\s*$`, 'm'))?.[1]
  const passed = count('pass')
  const failed = count('fail')
  if (passed === undefined || failed === undefined) return undefined
  return {
    passed: Number(passed),
    failed: Number(failed),
    skipped: Number(count('skipped') ?? 0) + Number(count('todo') ?? 0),
  }
}

/** pytest: `==== 3 passed, 1 failed, 2 skipped in 0.12s ====` (errors count as failures). */
const pytest: Parser = (text) => {
  const line = [
    ...text.matchAll(/^=+ (.*\d+ (?:passed|failed|errors?|skipped|deselected).*) in [\d.]+s.* =+\s*$/gm),
  ].at(-1)?.[1]
  if (line === undefined) return undefined
  const counts = pairs(line)
  return {
    passed: sum(counts, ['passed', 'xpassed']),
    failed: sum(counts, ['failed', 'error', 'errors']),
    skipped: sum(counts, ['skipped', 'xfailed', 'deselected']),
  }
}

/** cargo test: one `test result: ok. 5 passed; 0 failed; 1 ignored; …` per test binary, summed. */
const cargo: Parser = (text) => {
  const lines = [...text.matchAll(/^test result: \w+\. (.+)$/gm)]
  if (lines.length === 0) return undefined
  const totals = { passed: 0, failed: 0, skipped: 0 }
  for (const line of lines) {
    const counts = pairs(line[1] ?? '')
    totals.passed += sum(counts, ['passed'])
    totals.failed += sum(counts, ['failed'])
    totals.skipped += sum(counts, ['ignored'])
  }
  return totals
}

/** go test -v: `--- PASS:` / `--- FAIL:` / `--- SKIP:` lines (subtests included). */
const goTest: Parser = (text) => {
  const count = (word: string) => text.match(new RegExp(`^\\s*--- ${word}: `, 'gm'))?.length ?? 0
  const passed = count('PASS')
  const failed = count('FAIL')
  const skipped = count('SKIP')
  if (passed + failed + skipped === 0) return undefined
  return { passed, failed, skipped }
}

const PARSERS: readonly Parser[] = [vitest, jest, mocha, nodeTest, pytest, cargo, goTest]
