/**
 * The SQLite connection under Kysely: `better-sqlite3` when its native module loads, else Node's
 * built-in `node:sqlite` (Node ≥ 22.13). better-sqlite3 is an optional dependency because it
 * compiles at install time and needs Node's C headers; where it did not build (or was built for
 * another Node version) the gateway still runs on a Node that has SQLite built in.
 */
import { createRequire } from 'node:module'
import type { SqliteDatabase, SqliteStatement } from 'kysely'

/** How {@link openSqliteDatabase} opens a file. */
export interface SqliteOpenOptions {
  /** How long a writer waits for the lock (ms). */
  busyTimeoutMs: number
  /** Use this implementation only (default: better-sqlite3 when it loads, else node:sqlite). */
  driver?: SqliteDriverName
}

/** Which implementation serves a connection (shown by the startup line and `doctor`). */
export type SqliteDriverName = 'better-sqlite3' | 'node:sqlite'

/** An open database and the implementation behind it. */
export interface OpenedSqlite {
  database: SqliteDatabase
  driver: SqliteDriverName
}

/** Opens `path` with the first implementation that loads; the error says what to install when none does. */
export async function openSqliteDatabase(path: string, options: SqliteOpenOptions): Promise<OpenedSqlite> {
  const native: ReturnType<typeof loadBetterSqlite> =
    options.driver === 'node:sqlite' ? { ok: false, reason: 'node:sqlite was asked for' } : loadBetterSqlite()
  if (native.ok) {
    const database = new native.module(path, { timeout: options.busyTimeoutMs })
    database.pragma('journal_mode = WAL')
    database.pragma(`busy_timeout = ${options.busyTimeoutMs}`)
    database.pragma('synchronous = NORMAL')
    return { database: cachingStatements(database), driver: 'better-sqlite3' }
  }
  if (options.driver === 'better-sqlite3') throw new Error(`${native.reason}.`)
  const builtin = await loadNodeSqlite()
  if (builtin === undefined) throw new Error(noSqliteMessage(native.reason))
  const database = new builtin.DatabaseSync(path)
  database.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs}`)
  database.exec('PRAGMA journal_mode = WAL')
  database.exec('PRAGMA synchronous = NORMAL')
  return { database: cachingStatements(adaptNodeSqlite(database)), driver: 'node:sqlite' }
}

/** Statements kept per connection; the gateway's queries are a few dozen shapes. */
const STATEMENT_CACHE = 256

/**
 * Prepares each SQL text once. Kysely prepares a statement for every query, and preparing (parsing and
 * planning) cost as much as running the query on the request path (issue 37's load profile). Sharing
 * a statement is safe here: Kysely runs one query at a time on the one SQLite connection.
 */
function cachingStatements(database: SqliteDatabase): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>()
  return {
    close: () => {
      cache.clear()
      return database.close()
    },
    prepare(sql: string): SqliteStatement {
      const cached = cache.get(sql)
      if (cached) return cached
      const statement = database.prepare(sql)
      if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value as string)
      cache.set(sql, statement)
      return statement
    },
  }
}

type BetterSqlite = typeof import('better-sqlite3')

function loadBetterSqlite(): { ok: true; module: BetterSqlite } | { ok: false; reason: string } {
  let module: BetterSqlite
  try {
    // CommonJS, loaded lazily: a Postgres deployment never loads the native module.
    module = createRequire(import.meta.url)('better-sqlite3') as BetterSqlite
  } catch (error) {
    const missing = (error as { code?: unknown }).code === 'MODULE_NOT_FOUND'
    const reason = missing
      ? 'better-sqlite3 is not installed (its native build was skipped or failed at install time)'
      : `better-sqlite3 did not load: ${firstLine(error)}`
    return { ok: false, reason }
  }
  try {
    // The native addon loads at the first open; one built for another Node version fails here.
    new module(':memory:').close()
    return { ok: true, module }
  } catch (error) {
    return { ok: false, reason: `better-sqlite3's native module did not load: ${firstLine(error)}` }
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''
}

/** The part of `node:sqlite` used here (its types arrive with @types/node 22; we build against 20's). */
interface NodeStatement {
  columns(): unknown[]
  all(...values: unknown[]): unknown[]
  run(...values: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint }
  iterate(...values: unknown[]): IterableIterator<unknown>
}
interface NodeDatabase {
  exec(sql: string): void
  prepare(sql: string): NodeStatement
  close(): void
}
interface NodeSqlite {
  DatabaseSync: new (path: string) => NodeDatabase
}

async function loadNodeSqlite(): Promise<NodeSqlite | undefined> {
  try {
    return (await import('node:sqlite' as string)) as NodeSqlite
  } catch {
    return undefined
  }
}

function noSqliteMessage(nativeReason: string): string {
  return [
    `SQLite is unavailable on Node ${process.versions.node}: ${nativeReason}, and this Node has no built-in node:sqlite (it needs Node ≥ 22.13).`,
    'Either run on Node 22.13 or newer, use Postgres (--db postgres://…), or rebuild better-sqlite3 with',
    "Node's C headers available: `npm_config_nodedir=<folder holding include/node> npm rebuild better-sqlite3`",
    '(for a system Node, usually npm_config_nodedir=/usr).',
  ].join(' ')
}

/** node:sqlite's statements take parameters spread and have no `reader` flag; Kysely expects both. */
function adaptNodeSqlite(database: NodeDatabase): SqliteDatabase {
  return {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      const statement = database.prepare(sql)
      return {
        reader: statement.columns().length > 0,
        all: (values) => statement.all(...values),
        run: (values) => statement.run(...values),
        iterate: (values) => statement.iterate(...values),
      }
    },
  }
}
