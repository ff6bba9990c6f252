import type { GatewayConfig } from '../config.js'
import type { Storage, TurnRecord } from '../storage/types.js'
import { type GatewayError, invalidRequest, notFound } from '../wire/errors.js'
import type { JsonObject } from '../wire/json.js'
import type { CreateResponseRequest } from '../wire/request.js'
import type { Conversations } from './conversations.js'
import { conflict } from './stored-items.js'

/** A request's history as storage holds it. */
export interface Rehydrated {
  history: JsonObject[]
  expect: TurnRecord['expect']
  /** Set when the parent is a transient (store: false) response retained only by a session. */
  transient?: boolean
}

/**
 * Response state a long-lived connection retains without storage (the WebSocket transport): a
 * continuation of a `store: false` response on the same connection rehydrates from here.
 */
export interface ResponseSession {
  /** The whole canonical window ending at a retained response (raw items, oldest first). */
  window(id: string): JsonObject[] | undefined
  /** Keeps a finished response's window and the request it ran with. */
  retain(id: string, window: JsonObject[], request: CreateResponseRequest, response: JsonObject): void
}

/**
 * The history a request continues: its previous response's chain, a transient parent this connection
 * retained, or its conversation's items; with what storage must still hold when the turn is persisted.
 * Another tenant's response or conversation is as absent as a missing one.
 */
export async function rehydrate(
  storage: Storage,
  conversations: Conversations,
  limits: GatewayConfig['limits'],
  request: {
    previousResponseId: string | null
    conversationId?: string | null
  },
  tenant: string,
  session?: ResponseSession,
): Promise<Rehydrated | GatewayError> {
  if (request.previousResponseId !== null) {
    const id = request.previousResponseId
    // A transient parent retained by this connection (a stored one is read from storage as usual).
    const retained = session?.window(id)
    if (retained && !(await storage.getResponse(id)))
      return { history: retained, expect: { kind: 'none' }, transient: true }
    const chain = await storage.responseChain(id, limits.maxChainDepth)
    if (chain && chain.at(-1)?.tenant !== tenant) return notFound('response', id)
    if (!chain) {
      const head = await storage.getResponse(id)
      return head && head.tenant === tenant
        ? conflict(
            `The history of ${id} is longer than ${limits.maxChainDepth} responses (maxChainDepth); compact it or start a conversation.`,
          )
        : notFound('response', id)
    }
    const head = chain[chain.length - 1]
    return {
      history: chain.flatMap((response) => response.history),
      expect: { kind: 'response', id, version: head?.version ?? 0 },
    }
  }
  if (request.conversationId) {
    const id = request.conversationId
    const conversation = await conversations.own(id, tenant)
    if (!conversation) return notFound('conversation', id)
    const page = await storage.listItems(id, {
      limit: limits.maxConversationItems,
      order: 'asc',
      includeModelItems: true,
    })
    if (!page) return notFound('conversation', id)
    if (page.hasMore)
      return invalidRequest(
        `Conversation ${id} holds more than ${limits.maxConversationItems} items (maxConversationItems); compact it.`,
        'conversation',
      )
    return {
      history: page.items.filter((item) => item.visibility !== 'public').map((item) => item.item),
      expect: { kind: 'conversation', id, version: conversation.version },
    }
  }
  return { history: [], expect: { kind: 'none' } }
}
