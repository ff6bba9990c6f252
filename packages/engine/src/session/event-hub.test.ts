import { describe, expect, it } from 'vitest'
import { EventHub } from './event-hub.js'

describe('EventHub', () => {
  it('numbers events gap-free and gives the first subscriber what was published before it', async () => {
    const sink: number[] = []
    const hub = new EventHub('s1', (envelope) => sink.push(envelope.seq))
    hub.publish({ type: 'notice', level: 'info', message: 'early' })
    const first = hub.subscribe()
    hub.publish({ type: 'notice', level: 'info', message: 'late' })
    const second = hub.subscribe()
    hub.publish({ type: 'notice', level: 'info', message: 'last' })
    hub.close()
    const seqs = async (queue: AsyncIterable<{ seq: number }>) => {
      const seen: number[] = []
      for await (const envelope of queue) seen.push(envelope.seq)
      return seen
    }
    expect(await seqs(first)).toEqual([0, 1, 2])
    expect(await seqs(second)).toEqual([2])
    expect(sink).toEqual([0, 1, 2])
  })
})
