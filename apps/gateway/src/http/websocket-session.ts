import type { WebSocket } from 'ws'
import type { Executor } from '../executor/executor.js'
import type { TurnSink } from '../executor/turn.js'
import { errorBody, type GatewayError } from '../wire/errors.js'
import { isObject, type JsonObject } from '../wire/json.js'
import type { CreateResponseRequest } from '../wire/request.js'
import type { Principal } from './auth.js'
import type { Logger } from './log.js'
import { createMessage, injectMessage, type MessageLane } from './websocket-messages.js'
import { RetainedResponses, WS_LIMITS } from './websocket-retained.js'

/**
 * One WebSocket connection: its client messages, its lanes (requests with one `stream_id` run in
 * order, distinct lanes at once), admission within `WS_LIMITS`, the responses it retains, and the
 * close codes it ends with.
 */
export class WebSocketSession implements MessageLane {
  readonly retained = new RetainedResponses()
  readonly #lanes = new Map<string, Promise<void>>()
  readonly #controller = new AbortController()
  #queued = 0
  #queuedBytes = 0
  #closing = false

  constructor(
    readonly socket: WebSocket,
    private readonly principal: Principal,
    private readonly executor: Executor,
    private readonly log: Logger,
    onClosed: () => void,
  ) {
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      void this.#onMessage(data, isBinary)
    })
    socket.on('close', () => {
      this.#closing = true
      this.#controller.abort()
      onClosed()
      log({ level: 'info', msg: 'websocket closed', responses: this.retained.size })
    })
    socket.on('error', () => socket.terminate())
  }

  /** Sends a frame; resolves once it is handed to the socket (the backpressure), false when closed. */
  write(payload: JsonObject): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.socket.readyState !== this.socket.OPEN) return resolve(false)
      const text = JSON.stringify(payload)
      // The callback fires once the frame is handed to the socket: awaiting it is the backpressure.
      this.socket.send(text, (error) => resolve(!error))
    })
  }

  closeWith(code: number, reason: string): void {
    if (this.#closing) return
    this.#closing = true
    this.#controller.abort()
    this.socket.close(code, reason.slice(0, 120))
  }

  errorEvent(error: GatewayError, streamId: string | undefined): Promise<boolean> {
    return this.write({
      type: 'error',
      ...errorBody(error),
      ...(streamId === undefined ? {} : { stream_id: streamId }),
    })
  }

  busy(streamId: string | undefined): Promise<boolean> {
    return this.errorEvent(
      {
        status: 429,
        type: 'rate_limit_error',
        message: `This connection already holds ${WS_LIMITS.maxQueuedRequests} requests or ${WS_LIMITS.maxQueuedBytes} bytes of them; wait for some to finish.`,
        code: 'session_busy',
      },
      streamId,
    )
  }

  admit(bytes: number, streamId: string | undefined, request: CreateResponseRequest): boolean {
    if (this.#queued >= WS_LIMITS.maxQueuedRequests || this.#queuedBytes + bytes > WS_LIMITS.maxQueuedBytes)
      return false
    this.#queued += 1
    this.#queuedBytes += bytes
    const lane = streamId ?? ''
    const previous = this.#lanes.get(lane) ?? Promise.resolve()
    const next = previous
      .then(() => (this.#closing ? undefined : this.#run(request, streamId)))
      .catch((error: unknown) => {
        this.log({ level: 'error', msg: 'websocket request failed', error: (error as Error).message })
        this.closeWith(1011, 'gateway fault')
      })
      .finally(() => {
        this.#queued -= 1
        this.#queuedBytes -= bytes
        if (this.#lanes.get(lane) === next) this.#lanes.delete(lane)
      })
    this.#lanes.set(lane, next)
    return true
  }

  /** Resolves once every lane is empty. */
  async idle(): Promise<void> {
    while (this.#lanes.size > 0) await Promise.all(this.#lanes.values())
  }

  // Identity expiry is rechecked before each request starts.
  async #run(request: CreateResponseRequest, streamId: string | undefined): Promise<void> {
    const { principal } = this
    if (principal.expiresAt !== undefined && principal.expiresAt * 1000 <= Date.now()) {
      await this.errorEvent(
        { status: 401, type: 'authentication_error', message: 'The token has expired.' },
        streamId,
      )
      this.closeWith(1008, 'token expired')
      return
    }
    const sink: TurnSink = {
      send: (_type, data) => this.write(streamId === undefined ? data : { ...data, stream_id: streamId }),
    }
    const result = await this.executor.createResponse(
      { ...request, stream: true },
      sink,
      this.#controller.signal,
      principal.tenant,
      this.retained,
    )
    if (result.kind === 'error') await this.errorEvent(result.error, streamId)
  }

  async #onMessage(data: Buffer, isBinary: boolean): Promise<void> {
    let message: unknown
    try {
      message = isBinary ? undefined : JSON.parse(data.toString('utf8'))
    } catch {
      message = undefined
    }
    if (!isObject(message) || typeof message.type !== 'string') {
      this.closeWith(1007, 'frames must be JSON messages with a type')
      return
    }
    const streamId = typeof message.stream_id === 'string' ? message.stream_id : undefined
    switch (message.type) {
      case 'response.create':
        return createMessage(this, message, data.length, streamId)
      case 'response.inject':
        return injectMessage(this, message, data.length, streamId)
      default:
        this.closeWith(1007, `unknown message type ${message.type.slice(0, 40)}`)
    }
  }
}
