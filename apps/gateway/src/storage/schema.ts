/**
 * The schema and its migrations, identical on SQLite and Postgres (portable column types: text,
 * integer, bigint). Migrations run at startup through Kysely's Migrator, which locks on both backends.
 */
import type { Kysely } from 'kysely'
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration'

/** Row shapes as the database holds them (JSON columns are text). */
export interface Database {
  gw_conversations: {
    id: string
    created_at: number | string
    metadata: string
    version: number
    deleted: number
    tenant: string
  }
  gw_items: {
    conversation_id: string
    position: number
    id: string
    visibility: string
    data: string
    created_at: number | string
  }
  gw_responses: {
    id: string
    previous_response_id: string | null
    conversation_id: string | null
    created_at: number | string
    status: string
    snapshot: string
    history: string
    /** The request's input items with their ids (JSON); null for rows from before 0003. */
    input: string | null
    version: number
    deleted: number
    tenant: string
  }
}

const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('gw_conversations')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('metadata', 'text', (column) => column.notNull())
        .addColumn('version', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('deleted', 'integer', (column) => column.notNull().defaultTo(0))
        .execute()
      await db.schema
        .createTable('gw_items')
        .addColumn('conversation_id', 'text', (column) => column.notNull())
        .addColumn('position', 'integer', (column) => column.notNull())
        .addColumn('id', 'text', (column) => column.notNull())
        .addColumn('visibility', 'text', (column) => column.notNull())
        .addColumn('data', 'text', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addPrimaryKeyConstraint('gw_items_pk', ['conversation_id', 'position'])
        .addUniqueConstraint('gw_items_id', ['conversation_id', 'id'])
        .execute()
      await db.schema
        .createTable('gw_responses')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('previous_response_id', 'text')
        .addColumn('conversation_id', 'text')
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('snapshot', 'text', (column) => column.notNull())
        .addColumn('history', 'text', (column) => column.notNull())
        .addColumn('version', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('deleted', 'integer', (column) => column.notNull().defaultTo(0))
        .execute()
      await db.schema
        .createIndex('gw_responses_previous')
        .on('gw_responses')
        .column('previous_response_id')
        .execute()
    },
  },
  // The principal's tenant scopes conversations and responses ('' when the gateway has no auth).
  '0002_tenant': {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const table of ['gw_conversations', 'gw_responses'])
        await db.schema
          .alterTable(table)
          .addColumn('tenant', 'text', (column) => column.notNull().defaultTo(''))
          .execute()
    },
  },
  // A response's own input items, listed by GET /v1/responses/{id}/input_items.
  '0003_input_items': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('gw_responses').addColumn('input', 'text').execute()
    },
  },
}

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS }

/** Brings the schema up to date; throws with the failing migration's name. */
export async function migrate(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider,
    migrationTableName: 'gw_migrations',
    migrationLockTableName: 'gw_migrations_lock',
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failedName = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown'
    throw new Error(
      `Database migration ${failedName} failed: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
}
