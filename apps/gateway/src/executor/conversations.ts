import type { Storage, StoredConversation, StoredItem } from '../storage/types.js'
import { type GatewayError, notFound } from '../wire/errors.js'
import { newId } from '../wire/ids.js'
import type { JsonObject } from '../wire/json.js'
import { newItems, now } from './stored-items.js'

/** Options of `listItems`. */
export interface ListOptions {
  limit: number
  order: 'asc' | 'desc'
  after?: string
}

function publicConversation(conversation: StoredConversation): JsonObject {
  return {
    id: conversation.id,
    object: 'conversation',
    created_at: conversation.createdAt,
    metadata: conversation.metadata,
  }
}

function publicItem(stored: StoredItem): JsonObject {
  return { ...stored.item, id: stored.id }
}

/** The Conversations API over storage: each call sees only the tenant's own conversations. */
export class Conversations {
  readonly #storage: Storage

  constructor(storage: Storage) {
    this.#storage = storage
  }

  /** The conversation when it exists and belongs to `tenant`. */
  async own(id: string, tenant: string): Promise<StoredConversation | undefined> {
    const conversation = await this.#storage.getConversation(id)
    return conversation?.tenant === tenant ? conversation : undefined
  }

  /** `POST /v1/conversations`. */
  async create(items: JsonObject[], metadata: Record<string, string>, tenant = ''): Promise<JsonObject> {
    const conversation = await this.#storage.createConversation(
      { id: newId('conv'), createdAt: now(), metadata, tenant },
      newItems(items.map((item) => ({ item, visibility: 'both' }))),
    )
    return publicConversation(conversation)
  }

  /** `GET /v1/conversations/{id}`. */
  async get(id: string, tenant = ''): Promise<JsonObject | GatewayError> {
    const conversation = await this.own(id, tenant)
    return conversation ? publicConversation(conversation) : notFound('conversation', id)
  }

  /** `POST /v1/conversations/{id}`. */
  async update(
    id: string,
    metadata: Record<string, string>,
    tenant = '',
  ): Promise<JsonObject | GatewayError> {
    if (!(await this.own(id, tenant))) return notFound('conversation', id)
    const conversation = await this.#storage.updateConversation(id, metadata)
    return conversation ? publicConversation(conversation) : notFound('conversation', id)
  }

  /** `DELETE /v1/conversations/{id}`. */
  async delete(id: string, tenant = ''): Promise<JsonObject | GatewayError> {
    if (!(await this.own(id, tenant))) return notFound('conversation', id)
    return (await this.#storage.deleteConversation(id))
      ? { id, object: 'conversation.deleted', deleted: true }
      : notFound('conversation', id)
  }

  /** `POST /v1/conversations/{id}/items`. */
  async addItems(id: string, items: JsonObject[], tenant = ''): Promise<JsonObject | GatewayError> {
    if (!(await this.own(id, tenant))) return notFound('conversation', id)
    const added = await this.#storage.addItems(
      id,
      newItems(items.map((item) => ({ item, visibility: 'both' }))),
      now(),
    )
    if (!added) return notFound('conversation', id)
    const data = added.map(publicItem)
    return {
      object: 'list',
      data,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
      has_more: false,
    }
  }

  /** `GET /v1/conversations/{id}/items`. */
  async listItems(id: string, options: ListOptions, tenant = ''): Promise<JsonObject | GatewayError> {
    if (!(await this.own(id, tenant))) return notFound('conversation', id)
    const page = await this.#storage.listItems(id, options)
    if (!page) return notFound('conversation', id)
    const data = page.items.map(publicItem)
    return {
      object: 'list',
      data,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
      has_more: page.hasMore,
    }
  }

  /** `GET /v1/conversations/{id}/items/{item_id}`. */
  async getItem(id: string, itemId: string, tenant = ''): Promise<JsonObject | GatewayError> {
    if (!(await this.own(id, tenant))) return notFound('conversation', id)
    const item = await this.#storage.getItem(id, itemId)
    return item ? publicItem(item) : notFound('item', itemId)
  }

  /** `DELETE /v1/conversations/{id}/items/{item_id}`: answers with the conversation, as OpenAI does. */
  async deleteItem(id: string, itemId: string, tenant = ''): Promise<JsonObject | GatewayError> {
    const conversation = await this.own(id, tenant)
    if (!conversation) return notFound('conversation', id)
    if (!(await this.#storage.deleteItem(id, itemId))) return notFound('item', itemId)
    return publicConversation(conversation)
  }
}
