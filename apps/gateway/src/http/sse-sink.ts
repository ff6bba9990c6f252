/**
 * The client side of a stream: SSE headers on the first event, and the events of one tick written
 * as one chunk. Under load a read from the upstream carries several events; written one by one, each
 * was a chunk of its own (a size line, the data and a CRLF through the socket's stream machinery).
 */
import type { ServerResponse } from 'node:http'
import type { TurnSink } from '../executor/turn-events.js'
import { sseFrame } from '../sse/write-sse.js'
import type { JsonObject } from '../wire/json.js'

/**
 * A sink writing to one HTTP response; `send` answers at once unless the last write filled the
 * socket's buffer (then a promise, settled on drain); `end` writes what is pending and ends the response.
 */
export interface SseSink extends TurnSink {
  started(): boolean
  end(): void
}

/** Resolves true when the response drained, false when it closed first. */
function drained(res: ServerResponse): Promise<boolean> {
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
}

/** A sink writing to one HTTP response. */
export function sseSink(res: ServerResponse): SseSink {
  let started = false
  /** Frames sent this tick, written together once the tick's work is done. */
  let frames = ''
  /** Set when the last write filled the socket's buffer: the next event waits for it (backpressure). */
  let waiting: Promise<boolean> | undefined
  const flush = (): void => {
    const chunk = frames
    frames = ''
    if (chunk === '' || res.destroyed || res.writableEnded) return
    if (!res.write(chunk)) waiting = drained(res)
  }
  /** Writes one event now (the head first): false when the response is gone. */
  const write = (type: string, data: JsonObject, json: string | undefined): boolean => {
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
    // process.nextTick runs once the microtasks of this tick (the events of one upstream read) are done.
    if (frames === '') process.nextTick(flush)
    frames += sseFrame(type, json ?? JSON.stringify(data))
    return true
  }
  return {
    started: () => started,
    send(type, data, json) {
      const held = waiting
      if (!held) return write(type, data, json)
      return held.then((ok) => {
        if (waiting === held) waiting = undefined
        return ok && write(type, data, json)
      })
    },
    end() {
      flush()
      res.end()
    },
  }
}
