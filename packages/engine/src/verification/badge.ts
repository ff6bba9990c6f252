import type { CheckRecord, VerificationBadge } from '@z-engine/protocol'

/** What a turn's badge is decided from. */
export interface BadgeFacts {
  /** Whether the turn changed files (read-only turns are not applicable). */
  changed: boolean
  /** The session's check records, oldest first, each with its order among changes. */
  records: ReadonlyArray<{ record: CheckRecord; seq: number }>
  /** The order number of the last change the session saw (a write, or a command that may write). */
  lastChangeSeq: number
  /** The tree's fingerprint now. */
  fingerprint: string
}

/** Kinds whose pass proves a change (lint alone does not). */
const PROVING = new Set<CheckRecord['kind']>(['test', 'build', 'typecheck'])

/**
 * The badge of a turn (spec 000 "Verification"): a turn that changed files is Verified only when a
 * passing test, build or typecheck record is newer than the last change and its fingerprint matches
 * the tree; Failed when a current check's latest run failed; otherwise Unverified with the reason.
 * "Current" means recorded after the last change with the tree as it is now.
 */
export function decideBadge(facts: BadgeFacts): VerificationBadge {
  if (!facts.changed) return { type: 'notApplicable' }
  const current = facts.records.filter(
    (entry) => entry.seq > facts.lastChangeSeq && entry.record.fingerprintAfter === facts.fingerprint,
  )
  // Each check's latest current run speaks for it.
  const latest = new Map<string, CheckRecord>()
  for (const { record } of current) latest.set(record.checkId, record)
  const failing = [...latest.values()].filter((record) => !record.passed).at(-1)
  if (failing !== undefined)
    return { type: 'failed', checkId: failing.checkId, reason: failureReason(failing) }
  const proving = [...latest.values()].filter((record) => PROVING.has(record.kind))
  const last = proving.at(-1)
  if (last !== undefined)
    return {
      type: 'verified',
      checkId: last.checkId,
      ...(proving.length > 1 ? { checks: proving.map((record) => record.checkId) } : {}),
    }
  return { type: 'unverified', reason: unverifiedReason(facts, current.length > 0) }
}

/** Why a failed record failed, in a short line. */
export function failureReason(record: CheckRecord): string {
  const exit = record.exitCode === null ? 'it was stopped before it exited' : `exit code ${record.exitCode}`
  const tests =
    record.tests !== undefined && record.tests.failed > 0
      ? `; ${record.tests.failed} test${record.tests.failed === 1 ? '' : 's'} failed`
      : ''
  return `${record.checkId} (${record.command}) failed: ${exit}${tests}`
}

function unverifiedReason(facts: BadgeFacts, anyCurrent: boolean): string {
  if (anyCurrent)
    return 'Only lint or other checks passed since the last change; no test, build or typecheck did.'
  if (facts.records.length === 0) return 'Files changed and no check ran.'
  return 'Files changed after the last check ran.'
}
