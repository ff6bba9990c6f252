import { planOutputBudget } from '@z-engine/context'
import type { CheckRecord, Settings, VerificationBadge } from '@z-engine/protocol'
import type { CheckCommandRunner, CheckInfo, CheckPort, ToolResult } from '@z-engine/tools'
import { decideBadge, failureReason } from './badge.js'
import { discoverChecks } from './discover.js'
import type { WorkspaceFingerprint } from './fingerprint.js'
import { parseTestCounts } from './test-counts.js'

/**
 * Estimated tokens of a failing check's output the result (and the feedback) shows, shaped as test
 * output: failing tests' names and assertions, errors, the summary and the tail.
 */
export const FAILURE_OUTPUT_TOKENS = 1_000

/** What a session's verification is built from. */
export interface SessionVerificationDeps {
  projectRoot: string
  settings: Settings
  fingerprint: WorkspaceFingerprint
  /** Journals `checkRecorded` (before it is published). */
  record(record: CheckRecord): Promise<void>
  /** Saves a check's whole output as a session artifact; returns its path. */
  spill(content: string, hint: string): Promise<string>
  newId(prefix: string): string
  /** Records of a resumed session (replayed; older than anything this process sees). */
  replayed?: readonly CheckRecord[]
  now?: () => Date
}

/** A shell command that finished (a Bash call), as verification sees it. */
export interface ShellRun {
  command: string
  /** The folder it ended in, when known (a failed call reports none). */
  cwd?: string
  exitCode: number | null
  output: string
  durationMs?: number
}

/** Whether a shell run ran a check: the same command (spacing aside; `npm run test` and `npm test` alike) in its folder. */
function runsCheck(run: ShellRun & { cwd: string }, check: CheckInfo): boolean {
  return normalizedCommand(run.command) === normalizedCommand(check.command) && run.cwd === check.cwd
}

/** A command with its spacing collapsed and `<pm> run test` spelled `<pm> test`. */
function normalizedCommand(command: string): string {
  return command
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/^(npm|pnpm|yarn|bun) run (test)\b/, '$1 $2')
}

/** One check's run, as the summary reports it. */
interface Ran {
  check: CheckInfo
  record: CheckRecord
  tail: string
}

/**
 * A session's verification (spec 000 "Verification"): the checks (discovered once, without running
 * anything, plus `[[verification.checks]]`), their runs as CheckRecords with fingerprints before and
 * after, the order of changes and records, and the badge a turn ends with. It is the CheckPort the
 * Verify tool reaches; the stop boundary's auto and strict modes run checks through it too.
 */
export class SessionVerification implements CheckPort {
  readonly #deps: SessionVerificationDeps
  #discovery: Promise<CheckInfo[]> | undefined
  #known: CheckInfo[] | undefined
  readonly #records: Array<{ record: CheckRecord; seq: number }> = []
  #seq = 0
  #lastChangeSeq = 0

  constructor(deps: SessionVerificationDeps) {
    this.#deps = deps
    for (const record of deps.replayed ?? []) this.#records.push({ record, seq: 0 })
  }

  /** Starts discovery (reads a few root files); `list` waits for it. */
  start(): void {
    this.#discovery ??= discoverChecks(this.#deps.projectRoot, this.#deps.settings.verification.checks).then(
      (checks) => {
        this.#known = checks
        return checks
      },
      () => {
        this.#known = []
        return []
      },
    )
  }

  async list(): Promise<CheckInfo[]> {
    this.start()
    return [...(await this.#discovery!)]
  }

  known(): readonly CheckInfo[] | undefined {
    return this.#known
  }

  /** The session's records, oldest first. */
  records(): CheckRecord[] {
    return this.#records.map((entry) => entry.record)
  }

  /** A mark of "now" in the order of changes and records; `changedSince` compares against it. */
  mark(): number {
    return this.#seq
  }

  /** Notes that a tool call changed (or may have changed) the tree. */
  noteChange(): void {
    this.#seq += 1
    this.#lastChangeSeq = this.#seq
  }

  /** Whether a change was noted after `mark`. */
  changedSince(mark: number): boolean {
    return this.#lastChangeSeq > mark
  }

  /**
   * A shell command that ran a check's command counts as that check's run (issue 39): a passing
   * `npm test` through Bash is the `test` check's record, as if Verify had run it. Recorded after
   * the call's change is noted, with the tree's fingerprint now (before and after alike: the shell
   * run's starting tree is not known). Other commands are ignored.
   */
  async noteShellRun(run: ShellRun): Promise<void> {
    const where = { ...run, cwd: run.cwd ?? this.#deps.projectRoot }
    const check = (await this.list()).find((candidate) => runsCheck(where, candidate))
    if (check === undefined) return
    const now = this.#deps.now ?? (() => new Date())
    const fingerprint = await this.#deps.fingerprint.compute()
    const tests = parseTestCounts(run.output)
    const record: CheckRecord = {
      id: this.#deps.newId('chk'),
      checkId: check.id,
      kind: check.kind,
      command: run.command,
      exitCode: run.exitCode,
      passed: run.exitCode === 0 && (tests?.failed ?? 0) === 0,
      durationMs: Math.max(0, run.durationMs ?? 0),
      fingerprintBefore: fingerprint,
      fingerprintAfter: fingerprint,
      at: now().toISOString(),
      ...(tests !== undefined ? { tests } : {}),
    }
    this.#seq += 1
    this.#records.push({ record, seq: this.#seq })
    await this.#deps.record(record)
  }

  /** The badge of a turn that started at `mark` (read-only turns are not applicable). */
  async badge(mark: number): Promise<VerificationBadge> {
    if (!this.changedSince(mark)) return { type: 'notApplicable' }
    if (this.#deps.settings.verification.mode === 'off')
      return { type: 'unverified', reason: 'Verification is off (verification.mode = "off").' }
    const fingerprint = this.#records.length === 0 ? '' : await this.#deps.fingerprint.compute()
    return decideBadge({
      changed: true,
      records: this.#records,
      lastChangeSeq: this.#lastChangeSeq,
      fingerprint,
    })
  }

  async run(checkIds: string[], runner: CheckCommandRunner, signal: AbortSignal): Promise<ToolResult> {
    const known = await this.list()
    const ran: Ran[] = []
    for (const id of checkIds) {
      const check = known.find((candidate) => candidate.id === id)
      if (check === undefined || signal.aborted) continue
      ran.push(await this.runOne(check, runner))
    }
    if (signal.aborted && ran.length < checkIds.length)
      return { ok: false, error: { code: 'cancelled', message: 'cancelled by user' } }
    const records = ran.map((entry) => entry.record)
    return {
      ok: true,
      output: {
        content: [{ type: 'text', text: renderSummary(ran) }],
        details: { records },
      },
    }
  }

  /** Runs one check and records it (journaled before this returns). */
  async runOne(check: CheckInfo, runner: CheckCommandRunner): Promise<Ran> {
    const now = this.#deps.now ?? (() => new Date())
    const before = await this.#deps.fingerprint.compute()
    const started = Date.now()
    const result = await runner(check.command, {
      cwd: check.cwd,
      timeoutMs: check.timeoutMs ?? this.#deps.settings.shell.max_timeout_ms,
    })
    const durationMs = Math.max(0, result.durationMs ?? Date.now() - started)
    const after = await this.#deps.fingerprint.compute()
    const output = result.spawnError !== undefined ? `${result.output}\n${result.spawnError}` : result.output
    const tests = parseTestCounts(output)
    const artifact = await this.#deps
      .spill(`$ ${check.command}\n${output}`, `check ${check.id}`)
      .catch(() => undefined)
    const passed = result.exitCode === 0 && !result.timedOut && !result.aborted && (tests?.failed ?? 0) === 0
    const record: CheckRecord = {
      id: this.#deps.newId('chk'),
      checkId: check.id,
      kind: check.kind,
      command: check.command,
      exitCode: result.exitCode,
      passed,
      durationMs,
      fingerprintBefore: before,
      fingerprintAfter: after,
      at: now().toISOString(),
      ...(tests !== undefined ? { tests } : {}),
      ...(artifact !== undefined ? { outputArtifact: artifact } : {}),
    }
    this.#seq += 1
    this.#records.push({ record, seq: this.#seq })
    await this.#deps.record(record)
    const note = result.timedOut ? `\n(stopped after ${check.timeoutMs ?? 'the largest'} ms timeout)` : ''
    const shown = planOutputBudget(output, 'test', FAILURE_OUTPUT_TOKENS).text
    return { check, record, tail: `${shown}${note}` }
  }

  /**
   * The checks auto and strict modes run at the stop boundary: the configured ones when any, else
   * the first discovered test and typecheck checks (a build when there is neither).
   */
  async stopChecks(): Promise<CheckInfo[]> {
    const known = await this.list()
    const configured = known.filter((check) => check.source === 'settings [[verification.checks]]')
    if (configured.length > 0) return configured
    const first = (kind: CheckInfo['kind']) => known.find((check) => check.kind === kind)
    const chosen = [first('test'), first('typecheck')].filter((check) => check !== undefined)
    if (chosen.length > 0) return chosen
    const build = first('build')
    return build === undefined ? [] : [build]
  }
}

/** The result text of a Verify run: one line per check, and the tail of each failure's output. */
export function renderSummary(ran: readonly Ran[]): string {
  const lines: string[] = []
  for (const { record, tail } of ran) {
    const tests =
      record.tests === undefined
        ? ''
        : `, tests: ${record.tests.passed} passed, ${record.tests.failed} failed, ${record.tests.skipped} skipped`
    const artifact = record.outputArtifact !== undefined ? ` (full output: ${record.outputArtifact})` : ''
    const status = record.passed ? 'passed' : 'FAILED'
    lines.push(
      `${record.checkId}: ${status} (exit ${record.exitCode ?? 'none'}${tests}, ${(record.durationMs / 1000).toFixed(1)}s)${artifact}`,
    )
    if (!record.passed) lines.push(`--- ${record.command} (output) ---`, tail.trimEnd(), '---')
  }
  return lines.join('\n')
}

/** The feedback line of one failed record, for the stop boundary's reminder. */
export function failureLine(entry: Ran): string {
  return `- ${failureReason(entry.record)}\n${entry.tail.trimEnd()}`
}

export type { Ran as CheckRun }
