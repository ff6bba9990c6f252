import { readFile } from 'node:fs/promises'
import { writeFileAtomic } from './atomic-write.js'

/** The current `meta.json` format version. */
export const META_FORMAT_VERSION = 1

/**
 * `meta.json`: what listing sessions needs without reading their logs. The log stays the source
 * of truth; meta is a cache that `replay` can always rebuild.
 */
export interface SessionMeta {
  formatVersion: number
  sessionId: string
  projectRoot: string
  createdAt: string
  /** Last write to the session (ISO 8601). */
  updatedAt: string
  title?: string
  model?: string
  mode?: string
  /** Set on forks: the session and record the log was copied up to. */
  parent?: { sessionId: string; uptoRecordId: string }
}

/** A `meta.json` that could not be read, as a value. */
export type MetaReadResult = { ok: true; meta: SessionMeta } | { ok: false; error: string }

/** Reads and checks a `meta.json`; never throws. */
export async function readMeta(path: string): Promise<MetaReadResult> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    return { ok: false, error: `cannot read ${path}: ${(error as Error).message}` }
  }
  return parseMeta(text, path)
}

/** Parses a `meta.json` text; never throws. */
export function parseMeta(text: string, path: string): MetaReadResult {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return {
      ok: false,
      error: `${path} is not JSON (${(error as Error).message}); replay the log to rebuild it`,
    }
  }
  if (typeof value !== 'object' || value === null) return { ok: false, error: `${path} is not an object` }
  const meta = value as Partial<SessionMeta>
  if (typeof meta.sessionId !== 'string' || typeof meta.projectRoot !== 'string') {
    return { ok: false, error: `${path} lacks sessionId or projectRoot` }
  }
  if (typeof meta.formatVersion === 'number' && meta.formatVersion > META_FORMAT_VERSION) {
    return { ok: false, error: `${path} has format ${meta.formatVersion}; upgrade z-engine to read it` }
  }
  return { ok: true, meta: meta as SessionMeta }
}

/** Writes `meta.json` atomically (temp file + rename). */
export async function writeMeta(path: string, meta: SessionMeta): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(meta, null, 2)}\n`)
}
