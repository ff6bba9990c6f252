// The long run of the read-only proof fuzzer (the test command runs a few seconds of it): fresh
// seeds, more lines, every allowed line executed in the bubblewrap sandbox. Prints plain figures
// and each line real bash showed writing or executing; exits 1 if there is one.
import { fuzzProof } from '../test/fuzz/run-fuzz.js'
import { sandboxAvailable } from '../test/fuzz/sandbox.js'

if (!sandboxAvailable()) {
  console.log('fuzz: bubblewrap cannot create a sandbox here; skipped (scripts/setup.sh installs it)')
  process.exit(0)
}
const seeds = Number(process.env.FUZZ_SEEDS ?? 2)
const generate = Number(process.env.FUZZ_LINES ?? 5000)
const budgetMs = Number(process.env.FUZZ_BUDGET_MS ?? 60_000)
let failed = 0
for (let round = 0; round < seeds; round++) {
  const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647) + round
  const report = fuzzProof({ seed, generate, budgetMs })
  console.log(
    `fuzz: seed ${seed}: ${report.generated} lines generated, ${report.allowed} allowed, ${report.executed} run in bwrap in ${report.seconds.toFixed(1)} s, ${report.failures.length} wrote or executed`,
  )
  for (const failure of report.failures) {
    console.log(
      `  ${JSON.stringify(failure.line)}: ${failure.executed ? 'ran the canary' : failure.changes.join(' ')}`,
    )
  }
  failed += report.failures.length
}
process.exit(failed === 0 ? 0 : 1)
