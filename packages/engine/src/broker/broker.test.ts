import { describe, expect, it } from 'vitest'
import { Broker } from './broker.js'

describe('Broker', () => {
  it('answers requests in any order', async () => {
    const broker = new Broker<string>()
    const signal = new AbortController().signal
    const first = broker.wait('a', signal)
    const second = broker.wait('b', signal)
    expect(broker.pendingIds()).toEqual(['a', 'b'])
    expect(broker.resolve('b', 'B')).toBe(true)
    expect(broker.resolve('a', 'A')).toBe(true)
    expect(await first).toEqual({ type: 'answered', answer: 'A' })
    expect(await second).toEqual({ type: 'answered', answer: 'B' })
    expect(broker.resolve('a', 'again')).toBe(false)
  })

  it('resolves cancelled on abort and forgets the request', async () => {
    const broker = new Broker<string>()
    const controller = new AbortController()
    const waiting = broker.wait('a', controller.signal)
    controller.abort()
    expect(await waiting).toEqual({ type: 'cancelled' })
    expect(broker.pendingIds()).toEqual([])
    expect(broker.resolve('a', 'late')).toBe(false)
  })

  it('cancels everything on cancelAll', async () => {
    const broker = new Broker<number>()
    const waiting = broker.wait('x', new AbortController().signal)
    broker.cancelAll()
    expect(await waiting).toEqual({ type: 'cancelled' })
  })
})
