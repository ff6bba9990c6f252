import { describe, expect, it } from 'vitest'
import { AsyncQueue } from './async-queue.js'

describe('AsyncQueue', () => {
  it('delivers pushed items in order, then ends on close', async () => {
    const queue = new AsyncQueue<number>()
    queue.push(1)
    setTimeout(() => {
      queue.push(2)
      queue.close()
      queue.push(3)
    }, 5)
    const seen: number[] = []
    for await (const item of queue) seen.push(item)
    expect(seen).toEqual([1, 2])
  })
})
