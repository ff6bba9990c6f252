// Generates lines, keeps those the policy allows in default mode (proven read-only inside the
// project), runs them in the sandbox and returns every line that wrote or ran the canary.
import fc from 'fast-check'
import { buildRuleSet, decide, type PolicyContext } from '../../src/index.js'
import { fuzzLine } from './grammar.js'
import { type Observed, runInSandbox, SANDBOX_HOME, SANDBOX_PROJECT } from './sandbox.js'

const context: PolicyContext = {
  mode: 'default',
  rules: buildRuleSet([]),
  projectRoot: SANDBOX_PROJECT,
  additionalDirectories: [],
  home: SANDBOX_HOME,
}

/** What one fuzz run did. */
export interface FuzzReport {
  generated: number
  allowed: number
  executed: number
  failures: Observed[]
  seconds: number
}

/**
 * Samples `generate` lines from `seed`, runs the allowed ones (in chunks) until `budgetMs` is
 * spent, and reports the lines real bash showed writing or executing.
 */
export function fuzzProof(options: {
  seed: number
  generate: number
  budgetMs: number
  chunk?: number
}): FuzzReport {
  const started = Date.now()
  const lines = fc.sample(fuzzLine, { seed: options.seed, numRuns: options.generate })
  const allowed = [...new Set(lines)].filter(
    (line) => decide({ type: 'execute', command: line, cwd: SANDBOX_PROJECT }, context).decision === 'allow',
  )
  const failures: Observed[] = []
  let executed = 0
  const chunk = options.chunk ?? 25
  for (let at = 0; at < allowed.length; at += chunk) {
    if (at > 0 && Date.now() - started > options.budgetMs) break
    const batch = allowed.slice(at, at + chunk)
    executed += batch.length
    for (const observed of runInSandbox(batch))
      if (observed.executed || observed.wrote) failures.push(observed)
  }
  return {
    generated: lines.length,
    allowed: allowed.length,
    executed,
    failures,
    seconds: (Date.now() - started) / 1000,
  }
}
