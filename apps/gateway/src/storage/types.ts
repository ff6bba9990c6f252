/**
 * The one storage interface both backends implement (SQLite and Postgres share the schema, the
 * migrations and the queries). Only the executor holds a Storage; HTTP handlers never see one.
 */
import type { JsonObject } from '../wire/json.js'

/** Which backend a Storage runs on. */
export type BackendName = 'sqlite' | 'postgres'

/** A stored conversation. `version` grows with every change to its items. */
export interface StoredConversation {
  id: string
  createdAt: number
  metadata: Record<string, string>
  version: number
  /** The tenant that owns it ('' without authentication); other tenants never see it. */
  tenant: string
}

/**
 * Who an item is for: `both` (a message, a client function call), `public` (listed to clients but
 * never replayed to the model: mcp_call, web_search_call), `model` (replayed but not listed: the
 * canonical function call and output a gateway tool ran as).
 */
export type ItemVisibility = 'both' | 'public' | 'model'

/** An item to store in a conversation. */
export interface NewItem {
  id: string
  visibility: ItemVisibility
  item: JsonObject
}

/** An item stored in a conversation, in order. */
export interface StoredItem extends NewItem {
  conversationId: string
  position: number
  createdAt: number
}

/** A stored response: its public snapshot (for GET) and its turn's canonical history. */
export interface StoredResponse {
  id: string
  previousResponseId: string | null
  conversationId: string | null
  createdAt: number
  status: string
  /** The terminal public response, as the client received it. */
  snapshot: JsonObject
  /** This turn's input and model-facing output, replayed by a continuation. */
  history: JsonObject[]
  /** The request's own input items with their ids (null for responses stored before they were kept). */
  input: JsonObject[] | null
  /** How many continuations have been persisted from it (the compare-and-set token). */
  version: number
  /** Deleted by the client: hidden from GET and continuation, still in its descendants' chains. */
  deleted: boolean
  /** The tenant that owns it ('' without authentication). */
  tenant: string
}

/** One turn to write atomically. */
export interface TurnRecord {
  response: Omit<StoredResponse, 'version' | 'deleted'>
  /**
   * The version read at rehydration: the turn is written only if nothing else was persisted from the
   * same parent (or into the same conversation) since, so two concurrent continuations cannot both win.
   */
  expect:
    | { kind: 'none' }
    | { kind: 'response'; id: string; version: number }
    | { kind: 'conversation'; id: string; version: number }
  /** Items appended to the conversation (conversation-scoped turns only). */
  conversationItems: NewItem[]
}

/** The outcome of persisting a turn. */
export type PersistResult =
  /** `storedBytes`: the response's JSON (snapshot, history, input) as written, for the metrics. */
  { ok: true; storedBytes: number } | { ok: false; reason: 'conflict' | 'missing' }

/** A page of conversation items. */
export interface ItemPage {
  items: StoredItem[]
  hasMore: boolean
}

/** Options of {@link Storage.listItems}. */
export interface ListItemsOptions {
  limit: number
  order: 'asc' | 'desc'
  /** Item id to start after (exclusive), in the chosen order. */
  after?: string
  /** Include `model`-only items (rehydration wants them; clients do not). */
  includeModelItems?: boolean
}

/** Storage for conversations, items and responses. Every method is one transaction. */
export interface Storage {
  readonly backend: BackendName
  /** The connections now (Postgres: the pool's; SQLite: its one connection). */
  poolState(): { total: number; idle: number; waiting: number }
  /** Round-trips to the database (readiness). */
  ping(): Promise<void>
  close(): Promise<void>
  createConversation(
    conversation: Omit<StoredConversation, 'version'>,
    items: NewItem[],
  ): Promise<StoredConversation>
  getConversation(id: string): Promise<StoredConversation | undefined>
  updateConversation(id: string, metadata: Record<string, string>): Promise<StoredConversation | undefined>
  deleteConversation(id: string): Promise<boolean>
  /** Appends items; undefined when the conversation does not exist. */
  addItems(conversationId: string, items: NewItem[], createdAt: number): Promise<StoredItem[] | undefined>
  listItems(conversationId: string, options: ListItemsOptions): Promise<ItemPage | undefined>
  getItem(conversationId: string, itemId: string): Promise<StoredItem | undefined>
  deleteItem(conversationId: string, itemId: string): Promise<boolean>
  getResponse(id: string): Promise<StoredResponse | undefined>
  deleteResponse(id: string): Promise<boolean>
  /** The chain ending at `id`, oldest first; undefined when a link is missing or longer than `maxDepth`. */
  responseChain(id: string, maxDepth: number): Promise<StoredResponse[] | undefined>
  persistTurn(turn: TurnRecord): Promise<PersistResult>
}
