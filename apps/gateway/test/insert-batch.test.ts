import { describe, expect, it } from 'vitest'
import { InsertBatch } from '../src/storage/insert-batch.js'

describe('InsertBatch', () => {
  it('writes the rows added in one tick together, and the next tick’s apart', async () => {
    const writes: number[][] = []
    const batch = new InsertBatch<number>(async (rows) => {
      writes.push(rows)
    }, 100)
    await Promise.all([batch.add(1), batch.add(2), batch.add(3)])
    await batch.add(4)
    expect(writes).toEqual([[1, 2, 3], [4]])
  })

  it('splits a batch at its maximum size', async () => {
    const writes: number[][] = []
    const batch = new InsertBatch<number>(async (rows) => {
      writes.push(rows)
    }, 2)
    await Promise.all([1, 2, 3, 4, 5].map((row) => batch.add(row)))
    expect(writes).toEqual([[1, 2], [3, 4], [5]])
  })

  it('retries each row alone when the batch fails, so only the bad row fails', async () => {
    const writes: number[][] = []
    const batch = new InsertBatch<number>(async (rows) => {
      writes.push(rows)
      if (rows.includes(13)) throw new Error(`row 13 refused`)
    }, 100)
    const results = await Promise.allSettled([batch.add(1), batch.add(13), batch.add(2)])
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(writes).toEqual([[1, 13, 2], [1], [13], [2]])
  })
})
