import type { ToolResultBlock, ToolStatus } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { callKey, FailureTracker, REPEATED_FAILURE_THRESHOLD } from './failure-tracker.js'

const result = (id: string, text: string, isError = true): ToolResultBlock => ({
  type: 'tool_result',
  toolUseId: id,
  content: [{ type: 'text', text }],
  isError,
})
const call = (id: string, input: Record<string, unknown>, status: ToolStatus, text = 'Error: boom') => ({
  block: { type: 'tool_use' as const, id, name: 'Edit', input },
  status,
  result: result(id, text, status !== 'ok'),
})

describe('repeated identical failing tool calls (FailureTracker)', () => {
  it('tells the model at the threshold and on every repeat; key order does not make a call different', () => {
    const tracker = new FailureTracker()
    expect(tracker.observe([call('a', { x: 1, y: 2 }, 'error')], []).reminders).toEqual([])
    const second = tracker.observe([call('b', { y: 2, x: 1 }, 'error')], []).reminders
    expect(REPEATED_FAILURE_THRESHOLD).toBe(2)
    expect(second).toHaveLength(1)
    expect(second[0]).toContain('failed 2 times in a row with: Error: boom')
    expect(tracker.observe([call('c', { x: 1, y: 2 }, 'denied')], []).reminders[0]).toContain('3 times')
  })

  it('a success of the same call clears its count; cancelled calls do not count', () => {
    const tracker = new FailureTracker()
    tracker.observe([call('a', { x: 1 }, 'error')], [])
    tracker.observe([call('b', { x: 1 }, 'ok', 'done')], [])
    expect(tracker.observe([call('c', { x: 1 }, 'error')], []).reminders).toEqual([])
    tracker.observe([call('d', { x: 1 }, 'cancelled')], [])
    expect(tracker.observe([call('e', { x: 1 }, 'error')], []).reminders).toHaveLength(1)
  })

  it('malformed arguments are keyed by their raw text', () => {
    const block = { type: 'tool_use' as const, id: 'a', name: 'Read', input: {} }
    expect(callKey({ block, parseError: 'bad', argsText: '{"a"' })).not.toBe(
      callKey({ block, parseError: 'bad', argsText: '{"b"' }),
    )
  })
})
