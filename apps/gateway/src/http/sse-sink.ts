/** The client side of a stream: SSE headers on the first event, awaited writes (backpressure). */
import type { ServerResponse } from 'node:http'
import type { TurnSink } from '../executor/turn.js'
import { sseFrame } from '../sse/write-sse.js'

/** A sink writing to one HTTP response. */
export function sseSink(res: ServerResponse): TurnSink & { started(): boolean } {
  let started = false
  return {
    started: () => started,
    async send(type, data, json) {
      if (res.destroyed || res.writableEnded) return false
      if (!started) {
        started = true
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
          connection: 'keep-alive',
          'x-accel-buffering': 'no',
        })
      }
      if (res.write(sseFrame(type, json ?? JSON.stringify(data)))) return true
      return new Promise<boolean>((resolve) => {
        const done = (ok: boolean): void => {
          res.off('drain', onDrain)
          res.off('close', onClose)
          resolve(ok)
        }
        const onDrain = (): void => done(true)
        const onClose = (): void => done(false)
        res.once('drain', onDrain)
        res.once('close', onClose)
      })
    },
  }
}
