// What every test runner script here shares: the environment tests run in, and the totals read from
// vitest's JSON report.
import { readFileSync } from 'node:fs'

/**
 * Tests that commit in temp repositories need an identity; a fresh machine has none, and the user's
 * global git config is theirs, so it comes from the environment (only where none is set).
 */
export function testEnv(extra = {}) {
  return {
    GIT_AUTHOR_NAME: 'z-engine tests',
    GIT_AUTHOR_EMAIL: 'tests@z-engine.invalid',
    GIT_COMMITTER_NAME: 'z-engine tests',
    GIT_COMMITTER_EMAIL: 'tests@z-engine.invalid',
    ...process.env,
    TURBO_TELEMETRY_DISABLED: '1',
    DO_NOT_TRACK: '1',
    ...extra,
  }
}

/**
 * Passed and failed tests in a vitest JSON report; a file that failed before any test ran counts as
 * one failure, and a missing or unreadable report as one.
 */
export function reportTotals(path) {
  try {
    const results = JSON.parse(readFileSync(path, 'utf8'))
    let failed = results.numFailedTests + (results.numRuntimeErrorTestSuites ?? 0)
    for (const suite of results.testResults ?? []) {
      if (suite.status === 'failed' && (suite.assertionResults ?? []).length === 0) failed += 1
    }
    return { passed: results.numPassedTests, failed }
  } catch {
    return { passed: 0, failed: 1 }
  }
}
