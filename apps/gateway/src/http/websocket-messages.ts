import type { GatewayError } from '../wire/errors.js'
import { isObject, type JsonObject } from '../wire/json.js'
import { type CreateResponseRequest, parseCreateResponse } from '../wire/request.js'
import type { RetainedResponses } from './websocket-retained.js'

/** What a client message's handler may do on its connection. */
export interface MessageLane {
  readonly retained: RetainedResponses
  write(payload: JsonObject): Promise<boolean>
  errorEvent(error: GatewayError, streamId: string | undefined): Promise<boolean>
  closeWith(code: number, reason: string): void
  /** Queues a response on the stream's lane; false when the connection holds too many (nothing queued). */
  admit(bytes: number, streamId: string | undefined, request: CreateResponseRequest): boolean
  /** Tells the client the connection is full (`session_busy`). */
  busy(streamId: string | undefined): Promise<boolean>
}

/** `response.create`: a streamed response on the message's lane (never a background one). */
export async function createMessage(
  lane: MessageLane,
  message: JsonObject,
  bytes: number,
  streamId: string | undefined,
): Promise<void> {
  const { type: _type, stream_id: _stream, stream: _streamFlag, ...body } = message
  if (body.background === true) {
    await lane.errorEvent(
      {
        status: 400,
        type: 'invalid_request_error',
        // OpenAI's WebSocket mode refuses it too: a response here streams on this connection and
        // is cancelled when it closes, the opposite of a detached background response.
        message:
          'background is not supported over WebSocket: a response here streams on this connection and ends with it. Send background responses as POST /v1/responses, then retrieve, cancel or resume them over HTTP.',
        param: 'background',
        code: 'unsupported_parameter',
      },
      streamId,
    )
    return
  }
  const parsed = parseCreateResponse(body)
  if (!parsed.ok) {
    await lane.errorEvent(parsed.error, streamId)
    return
  }
  if (!lane.admit(bytes, streamId, parsed.value)) await lane.busy(streamId)
}

/**
 * `response.inject`: answers the client tool calls a retained response stopped at, continued as a
 * new response on the lane; `response.inject.failed` with the input unchanged when it cannot be.
 */
export async function injectMessage(
  lane: MessageLane,
  message: JsonObject,
  bytes: number,
  streamId: string | undefined,
): Promise<void> {
  const responseId = typeof message.response_id === 'string' ? message.response_id : undefined
  const input = message.input
  if (!responseId || !Array.isArray(input) || !input.every(isObject)) {
    lane.closeWith(1007, 'response.inject needs response_id and an input list')
    return
  }
  const failed = (code: string, text: string): Promise<boolean> =>
    lane.write({
      type: 'response.inject.failed',
      response_id: responseId,
      code,
      message: text,
      input,
      ...(streamId === undefined ? {} : { stream_id: streamId }),
    })
  const target = lane.retained.get(responseId)
  if (!target)
    return void (await failed(
      'response_not_found',
      `No response ${responseId} is retained by this connection.`,
    ))
  if (target.pendingCalls.size === 0)
    return void (await failed(
      'response_already_completed',
      `${responseId} has no client tool calls waiting.`,
    ))
  const unknown = input.find(
    (item) => item.type !== 'function_call_output' || !target.pendingCalls.has(String(item.call_id)),
  )
  if (unknown)
    return void (await failed(
      'invalid_input',
      `Every injected item must be a function_call_output answering a pending call of ${responseId} (${[...target.pendingCalls].join(', ')}).`,
    ))
  const { raw } = target.request
  const continued = parseCreateResponse({
    ...Object.fromEntries(Object.entries(raw).filter(([key]) => key !== 'conversation')),
    input,
    previous_response_id: responseId,
  })
  if (!continued.ok) return void (await failed('invalid_input', continued.error.message))
  if (!lane.admit(bytes, streamId, continued.value)) {
    await lane.busy(streamId)
    return
  }
  lane.retained.settle(responseId)
}
