import type { Metrics } from '../http/metrics.js'
import type { Storage, TurnRecord } from '../storage/types.js'
import { type GatewayError, notFound } from '../wire/errors.js'
import type { JsonObject } from '../wire/json.js'
import type { CreateResponseRequest } from '../wire/request.js'
import { conflict, newItems } from './stored-items.js'
import type { TurnItem } from './turn-output.js'

/**
 * Stores a finished turn atomically (the response, its history and input, the conversation's new
 * items); a conflict or a missing conversation comes back as the error to answer with.
 */
export async function persistTurn(
  storage: Storage,
  metrics: Metrics | undefined,
  request: CreateResponseRequest,
  responseId: string,
  createdAt: number,
  response: JsonObject,
  items: TurnItem[],
  expect: TurnRecord['expect'],
  tenant: string,
  transientPrefix?: JsonObject[],
): Promise<GatewayError | undefined> {
  const identified = newItems(items)
  const record: TurnRecord = {
    response: {
      id: responseId,
      // A stored child of a transient parent holds the whole window and no link to a row that does not exist.
      previousResponseId: transientPrefix ? null : request.previousResponseId,
      conversationId: request.conversationId,
      createdAt,
      status: String(response.status),
      snapshot: response,
      history: [
        ...(transientPrefix ?? []),
        ...identified.filter((entry) => entry.visibility !== 'public').map((entry) => entry.item),
      ],
      // The turn's items start with the request's input, in order.
      input: identified.slice(0, request.input.length).map((entry) => entry.item),
      tenant,
    },
    expect,
    conversationItems: expect.kind === 'conversation' ? identified : [],
  }
  const result = await storage.persistTurn(record)
  if (result.ok) {
    metrics?.stored(result.storedBytes)
    return undefined
  }
  if (result.reason === 'missing') return notFound('conversation', request.conversationId ?? '')
  return conflict(
    expect.kind === 'conversation'
      ? `Conversation ${expect.id} changed while this response ran (another turn or an item edit was stored first); nothing was stored — retry.`
      : `Another continuation of ${request.previousResponseId} was stored while this one ran; nothing was stored — retry from the latest response.`,
  )
}
