import { describe, expect, it, vi } from 'vitest'
import { createProgressThrottle, PROGRESS_INTERVAL_MS } from './progress-throttle.js'

describe('progress throttle', () => {
  it('delivers at most one update per interval, merging output chunks', () => {
    vi.useFakeTimers()
    try {
      const delivered: Array<{ message?: string; output?: string }> = []
      const throttle = createProgressThrottle(
        (update) => delivered.push(update),
        () => Date.now(),
      )
      throttle.push({ output: 'a' })
      throttle.push({ output: 'b' })
      throttle.push({ message: 'working', output: 'c' })
      expect(delivered).toEqual([{ output: 'a' }])
      vi.advanceTimersByTime(PROGRESS_INTERVAL_MS)
      expect(delivered).toEqual([{ output: 'a' }, { message: 'working', output: 'bc' }])
      for (let i = 0; i < 1000; i++) throttle.push({ output: 'x' })
      throttle.flush()
      expect(delivered.length).toBe(3)
      expect(delivered[2]?.output?.length).toBe(1000)
    } finally {
      vi.useRealTimers()
    }
  })
})
