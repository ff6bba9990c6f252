/**
 * The operator's API key file: a JSON array of `{"id", "sha256", "tenant"?, "requests_per_minute"?,
 * "max_request_bytes"?}`. Only hashes are kept at rest; a malformed entry is an error naming it.
 */
import { readFileSync } from 'node:fs'
import type { ApiKeyEntry } from './http/auth.js'

const HEX64 = /^[0-9a-f]{64}$/

function positive(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0
}

/** Parses a key file's text; a message saying what to fix when it is wrong. */
export function parseKeyFile(text: string, path: string): ApiKeyEntry[] | { error: string } {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return { error: `${path} is not JSON: ${(error as Error).message}` }
  }
  if (!Array.isArray(parsed)) return { error: `${path} must hold a JSON array of key entries.` }
  const entries: ApiKeyEntry[] = []
  const ids = new Set<string>()
  for (const [index, raw] of parsed.entries()) {
    const at = `${path}[${index}]`
    if (typeof raw !== 'object' || raw === null) return { error: `${at} must be an object.` }
    const entry = raw as Record<string, unknown>
    if (typeof entry.id !== 'string' || entry.id === '') return { error: `${at} needs an "id".` }
    if (ids.has(entry.id)) return { error: `${at} repeats the id "${entry.id}".` }
    ids.add(entry.id)
    if (typeof entry.sha256 !== 'string' || !HEX64.test(entry.sha256.toLowerCase()))
      return {
        error: `${at} needs "sha256": the key's hex SHA-256 (printf %s "$KEY" | sha256sum), never the key.`,
      }
    if (entry.tenant !== undefined && (typeof entry.tenant !== 'string' || entry.tenant === ''))
      return { error: `${at}: "tenant" must be a non-empty string.` }
    if (entry.requests_per_minute !== undefined && !positive(entry.requests_per_minute))
      return { error: `${at}: "requests_per_minute" must be a positive integer.` }
    if (entry.max_request_bytes !== undefined && !positive(entry.max_request_bytes))
      return { error: `${at}: "max_request_bytes" must be a positive integer.` }
    entries.push({
      id: entry.id,
      sha256: entry.sha256.toLowerCase(),
      ...(typeof entry.tenant === 'string' ? { tenant: entry.tenant } : {}),
      ...(positive(entry.requests_per_minute) ? { requestsPerMinute: entry.requests_per_minute } : {}),
      ...(positive(entry.max_request_bytes) ? { maxRequestBytes: entry.max_request_bytes } : {}),
    })
  }
  return entries
}

/** Reads and parses a key file. */
export function readKeyFile(path: string): ApiKeyEntry[] | { error: string } {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    return { error: `cannot read ${path}: ${(error as Error).message}` }
  }
  return parseKeyFile(text, path)
}
