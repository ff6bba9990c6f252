import { describe, expect, it } from 'vitest'
import { planExecutionOrder } from './plan-order.js'

describe('planExecutionOrder', () => {
  it('runs 3 reads together, the edit alone, then 2 reads together', () => {
    expect(planExecutionOrder([true, true, true, false, true, true])).toEqual([
      { type: 'concurrent', indices: [0, 1, 2] },
      { type: 'alone', index: 3 },
      { type: 'concurrent', indices: [4, 5] },
    ])
  })

  it('keeps consecutive barriers apart', () => {
    expect(planExecutionOrder([false, false])).toEqual([
      { type: 'alone', index: 0 },
      { type: 'alone', index: 1 },
    ])
  })

  it('plans nothing for an empty batch', () => {
    expect(planExecutionOrder([])).toEqual([])
  })
})
