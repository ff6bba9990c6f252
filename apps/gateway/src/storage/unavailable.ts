/**
 * Database trouble a client should retry rather than a gateway bug: a Postgres connection lost or
 * refused (a restart: `57P01` admin shutdown, then `ECONNREFUSED`; `08xxx` connection exceptions,
 * `57P03` starting up, a pool connect timeout) or a SQLite database locked past its busy timeout.
 * The request that met it fails with a 503 saying so; the pool reconnects on the next query.
 */
import type { GatewayError } from '../wire/errors.js'

const NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND'])
const SQLITE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY'])
const MESSAGES = [
  'Connection terminated',
  'connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'database is locked',
  'database table is locked',
]

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : ''
}

/** True when `error` (or what it wraps) is the database being unreachable, restarting or locked. */
export function isStorageUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false
  const code = codeOf(error)
  if (NODE_CODES.has(code) || SQLITE_CODES.has(code)) return true
  if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03') return true
  const message = (error as { message?: unknown }).message
  if (typeof message === 'string' && MESSAGES.some((text) => message.includes(text))) return true
  const errors = (error as { errors?: unknown }).errors
  if (Array.isArray(errors) && errors.some((inner) => isStorageUnavailable(inner, depth + 1))) return true
  return isStorageUnavailable((error as { cause?: unknown }).cause, depth + 1)
}

/** The 503 a request gets when the database is unavailable (nothing was stored by it). */
export function storageUnavailable(error: unknown): GatewayError {
  const detail = codeOf(error) || ((error as { message?: unknown })?.message as string) || 'unknown'
  return {
    status: 503,
    type: 'server_error',
    message: `The gateway's database is unavailable (${String(detail).slice(0, 120)}); nothing was stored — retry shortly.`,
    code: 'storage_unavailable',
  }
}
