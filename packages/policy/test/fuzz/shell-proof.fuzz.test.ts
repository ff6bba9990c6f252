import { describe, expect, it } from 'vitest'
import {
  fuzzCopies,
  fuzzDenyRule,
  fuzzLinkWalks,
  fuzzProof,
  gitAllowedWithDriver,
  HOSTILE_CONFIG,
  LINK_SETUP,
} from './run-fuzz.js'
import { runInSandbox, sandboxAvailable } from './sandbox.js'

// The proof fuzzer (issue 12): lines the policy allows as read-only must neither write a file nor
// run a program when real bash runs them in a throwaway bubblewrap sandbox. A fixed seed keeps the
// test command reproducible; `pnpm bench` runs longer with fresh seeds (bench/fuzz.ts).
const available = sandboxAvailable()
if (!available)
  console.warn(
    'bubblewrap cannot create a sandbox here (scripts/setup.sh installs it); the proof fuzzer is skipped',
  )

describe('git in a repository whose config names a driver (issue 34)', () => {
  it('no generated git line is allowed', () => {
    const { plain, allowed } = gitAllowedWithDriver({ seed: 34, generate: 3000 })
    expect(plain).toBeGreaterThan(10)
    expect(allowed).toEqual([])
  })
})

describe.skipIf(!available)('the read-only proof against real bash', () => {
  it('the sandbox sees writes and the canary (so a silent pass means something)', () => {
    const [write, run, read, leak] = runInSandbox([
      'echo x > out',
      'echo $(canary)',
      'cat a.txt',
      'git show :0:.env',
    ])
    expect(write?.wrote).toBe(true)
    expect(run?.executed).toBe(true)
    expect(read).toMatchObject({ wrote: false, executed: false, leaked: false })
    expect(leak?.leaked).toBe(true)
  })

  it('no allowed line writes or executes (fixed seed, bounded budget)', () => {
    const report = fuzzProof({ seed: 12, generate: 4000, budgetMs: 4000, chunk: 10 })
    expect(report.executed).toBeGreaterThan(0)
    expect(
      report.failures.map(
        (failure) =>
          `${JSON.stringify(failure.line)}: ${failure.executed ? 'ran the canary' : failure.changes.join(' ')}`,
      ),
    ).toEqual([])
  }, 120_000)

  it('under allow rules for the read tools, no allowed line writes a file (issue 34)', () => {
    const report = fuzzProof({
      seed: 341,
      generate: 3000,
      budgetMs: 4000,
      chunk: 10,
      allowRules: [
        'find',
        'awk',
        'gawk',
        'sed',
        'sort',
        'uniq',
        'xxd',
        'tree',
        'rg',
        'grep',
        'jq',
        'cat',
        'head',
        'ls',
      ],
    })
    expect(report.executed).toBeGreaterThan(0)
    expect(
      report.failures.map((failure) => `${JSON.stringify(failure.line)}: ${failure.changes.join(' ')}`),
    ).toEqual([])
  }, 120_000)

  it('copies of a hostile vendor/ tree allowed in acceptEdits create no protected place (issue 34)', () => {
    const report = fuzzCopies({ seed: 342, generate: 400 })
    expect(report.allowed).toBeGreaterThan(5)
    expect(report.failures).toEqual([])
  }, 120_000)

  it.each(['default', 'bypass'] as const)(
    'with a Read(./.env) deny rule in %s mode, no allowed line prints .env (issue 34)',
    (mode) => {
      const report = fuzzDenyRule({ seed: 343, generate: 2000, budgetMs: 4000, mode })
      expect(report.executed).toBeGreaterThan(0)
      expect(report.leaks).toEqual([])
    },
    120_000,
  )

  it('a link-following walk does reach the secret behind the link (so the next test means something)', () => {
    const [follow, plain] = runInSandbox(['rg -L secret', 'grep -r secret .'], 60_000, LINK_SETUP)
    expect(follow?.leaked).toBe(true)
    expect(plain?.leaked).toBe(false)
  })

  it('with a link out of the project, no allowed line prints what lies behind it (issue 34)', () => {
    const report = fuzzLinkWalks({ seed: 344, generate: 2000, budgetMs: 4000 })
    expect(report.executed).toBeGreaterThan(0)
    expect(report.leaks).toEqual([])
  }, 120_000)

  it('the hostile repository does run the canary for plain git (so the next test means something)', () => {
    const [status, diff] = runInSandbox(['git status', 'git diff'], 60_000, HOSTILE_CONFIG)
    expect(status?.executed).toBe(true)
    expect(diff?.executed).toBe(true)
  })

  it('in a repository whose config names the canary, no allowed line runs it (issue 34)', () => {
    const report = fuzzProof({ seed: 34, generate: 3000, budgetMs: 4000, chunk: 10, hostileRepository: true })
    expect(report.executed).toBeGreaterThan(0)
    expect(
      report.failures.map(
        (failure) =>
          `${JSON.stringify(failure.line)}: ${failure.executed ? 'ran the canary' : failure.changes.join(' ')}`,
      ),
    ).toEqual([])
  }, 120_000)
})
