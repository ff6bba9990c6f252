import { reminderText } from '@z-engine/prompts'
import type { Settings } from '@z-engine/protocol'
import type { CheckCommandRunner, CheckInfo } from '@z-engine/tools'
import { type CheckRun, failureLine, type SessionVerification } from './session-verification.js'

/** What the stop boundary decided about verification. */
export type StopVerdict = { type: 'end' } | { type: 'continue'; text: string }

/** What the stop boundary's checks need from the session. */
export interface StopChecksInput {
  verification: SessionVerification
  settings: Settings
  trusted: boolean
  /** Runs a check's command (environment policy, `[shell.sandbox]`, the session's process scope). */
  runner: (signal: AbortSignal) => CheckCommandRunner
  /** Whether a deny rule forbids the check's command (such a check is skipped, with a notice). */
  denied(check: CheckInfo): boolean
  notice(level: 'info' | 'warning', message: string): void
  /** The check-select decision seam: ids to skip (never all, never one that failed last). */
  select?(checks: readonly CheckInfo[], signal: AbortSignal): Promise<ReadonlySet<string>>
}

/**
 * Verification at the main agent's stop boundary (spec 000 "Stop boundary", step 3). In `auto` and
 * `strict` modes, a turn that changed files and is not verified yet runs the stop checks (trusted
 * workspaces only); failures go back to the model as a reminder. `auto` gives that feedback once per
 * turn, `strict` until the checks pass; both at most `verification.max_continuations` times. The
 * user is never asked anything here: checks a deny rule forbids are skipped.
 */
export function createStopChecks(input: StopChecksInput) {
  let untrustedNoticed = false
  return async (turnMark: number, continuationsUsed: number, signal: AbortSignal): Promise<StopVerdict> => {
    const { mode, max_continuations: max } = input.settings.verification
    if (mode !== 'auto' && mode !== 'strict') return { type: 'end' }
    const { verification } = input
    if (!verification.changedSince(turnMark) || signal.aborted) return { type: 'end' }
    if (!input.trusted) {
      if (!untrustedNoticed)
        input.notice(
          'info',
          `verification.mode = "${mode}" runs checks only in trusted workspaces; this workspace's turns get a badge only.`,
        )
      untrustedNoticed = true
      return { type: 'end' }
    }
    const badge = await verification.badge(turnMark)
    if (badge.type === 'verified') return { type: 'end' }
    let checks = (await verification.stopChecks()).filter((check) => {
      if (!input.denied(check)) return true
      input.notice(
        'warning',
        `Check ${check.id} (${check.command}) is not run at the stop boundary: a deny rule forbids its command.`,
      )
      return false
    })
    const skipped = (await input.select?.(checks, signal)) ?? new Set<string>()
    if (skipped.size > 0) {
      input.notice(
        'info',
        `Skipping ${[...skipped].join(', ')}: the decision service judged the changes cannot affect them.`,
      )
      checks = checks.filter((check) => !skipped.has(check.id))
    }
    if (checks.length === 0) return { type: 'end' }
    input.notice(
      'info',
      `Running ${checks.map((check) => check.id).join(', ')} (verification.mode = "${mode}").`,
    )
    const runner = input.runner(signal)
    const failed: CheckRun[] = []
    for (const check of checks) {
      if (signal.aborted) return { type: 'end' }
      const ran = await verification.runOne(check, runner)
      if (!ran.record.passed) failed.push(ran)
    }
    if (failed.length === 0 || signal.aborted) return { type: 'end' }
    const allowed = mode === 'auto' ? Math.min(1, max) : max
    if (continuationsUsed >= allowed) return { type: 'end' }
    return {
      type: 'continue',
      text: reminderText('checksFailed', {
        failures: failed.map(failureLine).join('\n\n'),
        remaining: String(allowed - continuationsUsed - 1),
      }),
    }
  }
}
