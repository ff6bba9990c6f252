import type { CheckRecord } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { decideBadge } from './badge.js'

const record = (
  checkId: string,
  passed: boolean,
  after: string,
  kind: CheckRecord['kind'] = 'test',
): CheckRecord => ({
  id: `r-${checkId}`,
  checkId,
  kind,
  command: `run ${checkId}`,
  exitCode: passed ? 0 : 1,
  passed,
  durationMs: 5,
  fingerprintBefore: 'f0',
  fingerprintAfter: after,
  at: '2026-12-01T00:00:00.000Z',
})

describe('the turn badge (spec 000 "Verification")', () => {
  it('is not applicable to a turn that changed nothing', () => {
    expect(decideBadge({ changed: false, records: [], lastChangeSeq: 0, fingerprint: 'f' })).toEqual({
      type: 'notApplicable',
    })
  })

  it('is Verified by a passing test newer than the last change whose fingerprint is the tree', () => {
    const records = [{ record: record('test', true, 'f1'), seq: 2 }]
    expect(decideBadge({ changed: true, records, lastChangeSeq: 1, fingerprint: 'f1' })).toEqual({
      type: 'verified',
      checkId: 'test',
    })
    // Older than the last change, or another tree: Unverified.
    expect(decideBadge({ changed: true, records, lastChangeSeq: 3, fingerprint: 'f1' })).toMatchObject({
      type: 'unverified',
      reason: 'Files changed after the last check ran.',
    })
    expect(decideBadge({ changed: true, records, lastChangeSeq: 1, fingerprint: 'f2' }).type).toBe(
      'unverified',
    )
  })

  it("is Failed while a current check's latest run failed, and lint alone proves nothing", () => {
    const failing = [
      { record: record('test', true, 'f1'), seq: 2 },
      { record: record('typecheck', false, 'f1', 'typecheck'), seq: 3 },
    ]
    expect(
      decideBadge({ changed: true, records: failing, lastChangeSeq: 1, fingerprint: 'f1' }),
    ).toMatchObject({
      type: 'failed',
      checkId: 'typecheck',
      reason: 'typecheck (run typecheck) failed: exit code 1',
    })
    const rerun = [...failing, { record: record('typecheck', true, 'f1', 'typecheck'), seq: 4 }]
    expect(decideBadge({ changed: true, records: rerun, lastChangeSeq: 1, fingerprint: 'f1' }).type).toBe(
      'verified',
    )
    const lint = [{ record: record('lint', true, 'f1', 'lint'), seq: 2 }]
    expect(decideBadge({ changed: true, records: lint, lastChangeSeq: 1, fingerprint: 'f1' }).type).toBe(
      'unverified',
    )
    expect(decideBadge({ changed: true, records: [], lastChangeSeq: 1, fingerprint: 'f1' })).toMatchObject({
      reason: 'Files changed and no check ran.',
    })
  })
})
