/** The Storage implementation over Kysely: one set of queries for SQLite and Postgres. */
import { CompiledQuery, type Kysely, type Transaction } from 'kysely'
import type { JsonObject } from '../wire/json.js'
import { InsertBatch } from './insert-batch.js'
import type { Database } from './schema.js'
import type {
  BackendName,
  ItemPage,
  ItemVisibility,
  ListItemsOptions,
  NewItem,
  PersistResult,
  Storage,
  StoredConversation,
  StoredItem,
  StoredResponse,
  TurnRecord,
} from './types.js'

type ConversationRow = Database['gw_conversations']
type ItemRow = Database['gw_items']
type ResponseRow = Database['gw_responses']

function conversationOf(row: ConversationRow): StoredConversation {
  return {
    id: row.id,
    createdAt: Number(row.created_at),
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    version: Number(row.version),
    tenant: row.tenant,
  }
}

function itemOf(row: ItemRow): StoredItem {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    position: Number(row.position),
    createdAt: Number(row.created_at),
    visibility: row.visibility as ItemVisibility,
    item: JSON.parse(row.data) as JsonObject,
  }
}

function responseOf(row: ResponseRow): StoredResponse {
  return {
    id: row.id,
    previousResponseId: row.previous_response_id,
    conversationId: row.conversation_id,
    createdAt: Number(row.created_at),
    status: row.status,
    snapshot: JSON.parse(row.snapshot) as JsonObject,
    history: JSON.parse(row.history) as JsonObject[],
    input: row.input === null ? null : (JSON.parse(row.input) as JsonObject[]),
    version: Number(row.version),
    deleted: Number(row.deleted) !== 0,
    tenant: row.tenant,
  }
}

/** A Storage over an open, migrated Kysely instance. */
export class KyselyStorage implements Storage {
  readonly backend: BackendName
  readonly #db: Kysely<Database>
  readonly #pool: () => { total: number; idle: number; waiting: number }
  /** The response insert's SQL in this dialect by row count, built once each: building and compiling it per turn cost more than running it. */
  readonly #insertResponseSql = new Map<number, string>()
  /** Fresh responses (the common turn) are inserted together, one statement per event-loop turn. */
  readonly #freshResponses = new InsertBatch<ResponseRow>((rows) => this.#insertRows(rows), MAX_BATCH_ROWS)

  constructor(
    db: Kysely<Database>,
    backend: BackendName,
    pool: () => { total: number; idle: number; waiting: number } = () => ({ total: 1, idle: 1, waiting: 0 }),
  ) {
    this.#db = db
    this.backend = backend
    this.#pool = pool
  }

  poolState(): { total: number; idle: number; waiting: number } {
    return this.#pool()
  }

  async ping(): Promise<void> {
    await this.#db.selectFrom('gw_conversations').select('id').limit(1).execute()
  }

  async close(): Promise<void> {
    await this.#db.destroy()
  }

  async createConversation(
    conversation: Omit<StoredConversation, 'version'>,
    items: NewItem[],
  ): Promise<StoredConversation> {
    return this.#db.transaction().execute(async (tx) => {
      await tx
        .insertInto('gw_conversations')
        .values({
          id: conversation.id,
          created_at: conversation.createdAt,
          metadata: JSON.stringify(conversation.metadata),
          version: items.length > 0 ? 1 : 0,
          deleted: 0,
          tenant: conversation.tenant,
        })
        .execute()
      await insertItems(tx, conversation.id, 0, items, conversation.createdAt)
      return { ...conversation, version: items.length > 0 ? 1 : 0 }
    })
  }

  async getConversation(id: string): Promise<StoredConversation | undefined> {
    const row = await this.#db
      .selectFrom('gw_conversations')
      .selectAll()
      .where('id', '=', id)
      .where('deleted', '=', 0)
      .executeTakeFirst()
    return row ? conversationOf(row) : undefined
  }

  async updateConversation(
    id: string,
    metadata: Record<string, string>,
  ): Promise<StoredConversation | undefined> {
    const row = await this.#db
      .updateTable('gw_conversations')
      .set({ metadata: JSON.stringify(metadata) })
      .where('id', '=', id)
      .where('deleted', '=', 0)
      .returningAll()
      .executeTakeFirst()
    return row ? conversationOf(row) : undefined
  }

  async deleteConversation(id: string): Promise<boolean> {
    return this.#db.transaction().execute(async (tx) => {
      const result = await tx
        .updateTable('gw_conversations')
        .set((eb) => ({ deleted: 1, version: eb('version', '+', 1) }))
        .where('id', '=', id)
        .where('deleted', '=', 0)
        .executeTakeFirst()
      if (Number(result.numUpdatedRows) === 0) return false
      await tx.deleteFrom('gw_items').where('conversation_id', '=', id).execute()
      return true
    })
  }

  async addItems(
    conversationId: string,
    items: NewItem[],
    createdAt: number,
  ): Promise<StoredItem[] | undefined> {
    return this.#db.transaction().execute(async (tx) => {
      if (!(await bumpVersion(tx, conversationId, undefined))) return undefined
      return insertItems(tx, conversationId, await nextPosition(tx, conversationId), items, createdAt)
    })
  }

  async listItems(conversationId: string, options: ListItemsOptions): Promise<ItemPage | undefined> {
    return this.#db.transaction().execute(async (tx) => {
      const exists = await tx
        .selectFrom('gw_conversations')
        .select('id')
        .where('id', '=', conversationId)
        .where('deleted', '=', 0)
        .executeTakeFirst()
      if (!exists) return undefined
      let query = tx.selectFrom('gw_items').selectAll().where('conversation_id', '=', conversationId)
      if (!options.includeModelItems) query = query.where('visibility', '!=', 'model')
      if (options.after !== undefined) {
        const anchor = await tx
          .selectFrom('gw_items')
          .select('position')
          .where('conversation_id', '=', conversationId)
          .where('id', '=', options.after)
          .executeTakeFirst()
        if (anchor)
          query = query.where('position', options.order === 'asc' ? '>' : '<', Number(anchor.position))
      }
      const rows = await query
        .orderBy('position', options.order)
        .limit(options.limit + 1)
        .execute()
      return { items: rows.slice(0, options.limit).map(itemOf), hasMore: rows.length > options.limit }
    })
  }

  async getItem(conversationId: string, itemId: string): Promise<StoredItem | undefined> {
    const row = await this.#db
      .selectFrom('gw_items')
      .innerJoin('gw_conversations', 'gw_conversations.id', 'gw_items.conversation_id')
      .selectAll('gw_items')
      .where('gw_items.conversation_id', '=', conversationId)
      .where('gw_items.id', '=', itemId)
      .where('gw_items.visibility', '!=', 'model')
      .where('gw_conversations.deleted', '=', 0)
      .executeTakeFirst()
    return row ? itemOf(row) : undefined
  }

  async deleteItem(conversationId: string, itemId: string): Promise<boolean> {
    return this.#db.transaction().execute(async (tx) => {
      const result = await tx
        .deleteFrom('gw_items')
        .where('conversation_id', '=', conversationId)
        .where('id', '=', itemId)
        .where('visibility', '!=', 'model')
        .executeTakeFirst()
      if (Number(result.numDeletedRows) === 0) return false
      await bumpVersion(tx, conversationId, undefined)
      return true
    })
  }

  async getResponse(id: string): Promise<StoredResponse | undefined> {
    const row = await this.#db
      .selectFrom('gw_responses')
      .selectAll()
      .where('id', '=', id)
      .where('deleted', '=', 0)
      .executeTakeFirst()
    return row ? responseOf(row) : undefined
  }

  async deleteResponse(id: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('gw_responses')
      .set({ deleted: 1 })
      .where('id', '=', id)
      .where('deleted', '=', 0)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) > 0
  }

  async responseChain(id: string, maxDepth: number): Promise<StoredResponse[] | undefined> {
    return this.#db.transaction().execute(async (tx) => {
      const chain: StoredResponse[] = []
      let next: string | null = id
      while (next !== null) {
        if (chain.length >= maxDepth) return undefined
        const row = await tx.selectFrom('gw_responses').selectAll().where('id', '=', next).executeTakeFirst()
        // The head must be live; ancestors deleted by the client still carry their descendants' history.
        if (!row || (chain.length === 0 && Number(row.deleted) !== 0)) return undefined
        const response = responseOf(row)
        chain.push(response)
        next = response.previousResponseId
      }
      return chain.reverse()
    })
  }

  async persistTurn(turn: TurnRecord): Promise<PersistResult> {
    // A fresh response (no parent, no conversation) is one row: it joins the turn's group commit.
    if (turn.expect.kind === 'none') {
      const row = responseRow(turn.response)
      await this.#freshResponses.add(row)
      return { ok: true, storedBytes: storedBytesOf(row) }
    }
    return this.#db.transaction().execute(async (tx): Promise<PersistResult> => {
      const { expect } = turn
      switch (expect.kind) {
        case 'none':
          break
        case 'response': {
          const result = await tx
            .updateTable('gw_responses')
            .set((eb) => ({ version: eb('version', '+', 1) }))
            .where('id', '=', expect.id)
            .where('version', '=', expect.version)
            .executeTakeFirst()
          if (Number(result.numUpdatedRows) === 0) return { ok: false, reason: 'conflict' }
          break
        }
        case 'conversation':
          if (!(await bumpVersion(tx, expect.id, expect.version))) {
            const alive = await tx
              .selectFrom('gw_conversations')
              .select('id')
              .where('id', '=', expect.id)
              .where('deleted', '=', 0)
              .executeTakeFirst()
            return { ok: false, reason: alive ? 'conflict' : 'missing' }
          }
          await insertItems(
            tx,
            expect.id,
            await nextPosition(tx, expect.id),
            turn.conversationItems,
            turn.response.createdAt,
          )
          break
        default: {
          const unreachable: never = expect
          throw new Error(`unknown expectation ${JSON.stringify(unreachable)}`)
        }
      }
      return this.#insertResponse(tx, turn.response)
    })
  }

  /** Inserts a turn's response row (inside the turn's transaction). */
  async #insertResponse(tx: Transaction<Database>, response: TurnRecord['response']): Promise<PersistResult> {
    const row = responseRow(response)
    await this.#insertRows([row], tx)
    return { ok: true, storedBytes: storedBytesOf(row) }
  }

  /** One INSERT of these rows: a single statement is atomic without a transaction of its own. */
  async #insertRows(
    rows: ResponseRow[],
    db: Kysely<Database> | Transaction<Database> = this.#db,
  ): Promise<void> {
    let sql = this.#insertResponseSql.get(rows.length)
    if (sql === undefined) {
      sql = db.insertInto('gw_responses').values(rows).compile().sql
      this.#insertResponseSql.set(rows.length, sql)
    }
    // The compiled statement lists each row's columns in the key order of `responseRow`, so the values follow it.
    await db.executeQuery(
      CompiledQuery.raw(
        sql,
        rows.flatMap((row) => Object.values(row)),
      ),
    )
  }
}

/** Rows of one statement at most: 100 × 11 parameters, far below SQLite's and Postgres's limits. */
const MAX_BATCH_ROWS = 100

function responseRow(response: TurnRecord['response']): ResponseRow {
  return {
    id: response.id,
    previous_response_id: response.previousResponseId,
    conversation_id: response.conversationId,
    created_at: response.createdAt,
    status: response.status,
    snapshot: JSON.stringify(response.snapshot),
    history: JSON.stringify(response.history),
    input: response.input === null ? null : JSON.stringify(response.input),
    version: 0,
    deleted: 0,
    tenant: response.tenant,
  }
}

function storedBytesOf(row: ResponseRow): number {
  return (
    Buffer.byteLength(row.snapshot) +
    Buffer.byteLength(row.history) +
    (row.input === null ? 4 : Buffer.byteLength(row.input))
  )
}

/** Bumps a live conversation's version (only from `expected` when given); false when nothing matched. */
async function bumpVersion(
  tx: Transaction<Database>,
  id: string,
  expected: number | undefined,
): Promise<boolean> {
  let query = tx
    .updateTable('gw_conversations')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .where('deleted', '=', 0)
  if (expected !== undefined) query = query.where('version', '=', expected)
  const result = await query.executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

async function nextPosition(tx: Transaction<Database>, conversationId: string): Promise<number> {
  const row = await tx
    .selectFrom('gw_items')
    .select((eb) => eb.fn.max('position').as('last'))
    .where('conversation_id', '=', conversationId)
    .executeTakeFirst()
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1
}

async function insertItems(
  tx: Transaction<Database>,
  conversationId: string,
  first: number,
  items: NewItem[],
  createdAt: number,
): Promise<StoredItem[]> {
  if (items.length === 0) return []
  const rows: ItemRow[] = items.map((entry, offset) => ({
    conversation_id: conversationId,
    position: first + offset,
    id: entry.id,
    visibility: entry.visibility,
    data: JSON.stringify(entry.item),
    created_at: createdAt,
  }))
  await tx.insertInto('gw_items').values(rows).execute()
  return rows.map(itemOf)
}
