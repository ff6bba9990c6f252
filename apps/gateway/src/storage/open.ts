/**
 * A connection URL selects the backend: `sqlite:PATH` (or a bare path) for the embedded default,
 * `postgres://…` / `postgresql://…` for Postgres. Opening migrates the schema.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import { KyselyStorage } from './kysely-store.js'
import { type Database, migrate } from './schema.js'
import { openSqliteDatabase, type SqliteDriverName } from './sqlite-database.js'
import type { BackendName, Storage } from './types.js'

/** A parsed storage URL. */
export type StorageTarget = { backend: 'sqlite'; path: string } | { backend: 'postgres'; url: string }

/** Tuning knobs of {@link openStorage}. */
export interface StorageOptions {
  /** SQLite: how long a writer waits for the lock (ms). Default 5000. */
  busyTimeoutMs?: number
  /** SQLite: use this implementation only. Default: better-sqlite3 when it loads, else Node's node:sqlite. */
  sqliteDriver?: SqliteDriverName
  /** Postgres: per-statement ceiling (ms). Default 30000. */
  statementTimeoutMs?: number
  /** Postgres: how long a statement waits for a row lock (ms). Default 5000. */
  lockTimeoutMs?: number
  /** Postgres pool size. Default 10. */
  poolSize?: number
}

/** Parses a `--db` value; an error message says which forms are accepted. */
export function parseStorageUrl(value: string): StorageTarget | { error: string } {
  if (value.startsWith('postgres://') || value.startsWith('postgresql://'))
    return { backend: 'postgres', url: value }
  if (value.startsWith('sqlite://'))
    return { backend: 'sqlite', path: resolve(value.slice('sqlite://'.length)) }
  if (value.startsWith('sqlite:')) return { backend: 'sqlite', path: resolve(value.slice('sqlite:'.length)) }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value))
    return {
      error: `Unsupported database URL scheme in '${redactUrl(value)}': use sqlite:PATH or postgres://…`,
    }
  if (value === '') return { error: 'The database URL is empty: use sqlite:PATH or postgres://…' }
  return { backend: 'sqlite', path: resolve(value) }
}

/** A URL safe to log: the password (and any query string, which may carry one) removed. */
export function redactUrl(value: string): string {
  try {
    const url = new URL(value)
    if (url.password !== '') url.password = '***'
    if (url.search !== '') url.search = '?***'
    return url.toString()
  } catch {
    return value.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@')
  }
}

/** Opens (and migrates) the storage a target names. */
export async function openStorage(target: StorageTarget, options: StorageOptions = {}): Promise<Storage> {
  const { db, pool } = await connect(target, options)
  try {
    await migrate(db)
  } catch (error) {
    await db.destroy()
    throw error
  }
  const backend: BackendName = target.backend
  return new KyselyStorage(db, backend, pool)
}

type PoolReader = () => { total: number; idle: number; waiting: number }

async function connect(
  target: StorageTarget,
  options: StorageOptions,
): Promise<{ db: Kysely<Database>; pool?: PoolReader }> {
  switch (target.backend) {
    case 'sqlite': {
      // Stored conversations are private: a folder the gateway creates is 0700 and the database
      // file 0600 (SQLite gives its -wal and -shm files the database file's mode).
      const folder = dirname(target.path)
      if (!existsSync(folder)) mkdirSync(folder, { recursive: true, mode: 0o700 })
      closeSync(openSync(target.path, 'a', 0o600))
      chmodSync(target.path, 0o600)
      const { database } = await openSqliteDatabase(target.path, {
        busyTimeoutMs: options.busyTimeoutMs ?? 5000,
      })
      return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database }) }) }
    }
    case 'postgres': {
      const { default: pg } = await import('pg')
      const pool = new pg.Pool({
        connectionString: target.url,
        max: options.poolSize ?? 10,
        statement_timeout: options.statementTimeoutMs ?? 30_000,
        lock_timeout: options.lockTimeoutMs ?? 5000,
        connectionTimeoutMillis: 10_000,
      })
      // A client losing its connection (a server restart: 57P01, then ECONNRESET) emits 'error' on the
      // pool when idle and on the client when checked out; either must not crash the process. The
      // query it ran fails (a 503 to its request), the broken client is discarded, the next query
      // connects anew.
      pool.on('error', () => {})
      pool.on('connect', (client) => {
        client.on('error', () => {})
      })
      return {
        db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
        pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      }
    }
    default: {
      const unreachable: never = target
      throw new Error(`unknown backend ${JSON.stringify(unreachable)}`)
    }
  }
}
