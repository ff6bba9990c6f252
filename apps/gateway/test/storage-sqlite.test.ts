import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openStorage, parseStorageUrl, redactUrl } from '../src/storage/open.js'
import { describeStorageConformance } from './storage-conformance.js'

const root = mkdtempSync(join(tmpdir(), 'gateway-sqlite-'))
let counter = 0
let current = ''
afterAll(() => rmSync(root, { recursive: true, force: true }))

describeStorageConformance('sqlite', {
  fresh: () => {
    current = join(root, `db-${counter++}`, 'gateway.db')
    return openStorage({ backend: 'sqlite', path: current })
  },
  reopen: () => openStorage({ backend: 'sqlite', path: current }),
})

describe('storage URLs', () => {
  it('select the backend from the URL', () => {
    expect(parseStorageUrl('sqlite:/tmp/x.db')).toEqual({ backend: 'sqlite', path: '/tmp/x.db' })
    expect(parseStorageUrl('sqlite:///tmp/x.db')).toEqual({ backend: 'sqlite', path: '/tmp/x.db' })
    expect(parseStorageUrl('postgres://u:p@h/db')).toEqual({
      backend: 'postgres',
      url: 'postgres://u:p@h/db',
    })
    expect(parseStorageUrl('mysql://u:secret@h/db')).toEqual({
      error: "Unsupported database URL scheme in 'mysql://u:***@h/db': use sqlite:PATH or postgres://…",
    })
  })

  it('redact passwords and query strings', () => {
    expect(redactUrl('postgres://gw:hunter2@127.0.0.1:5432/db?password=x')).toBe(
      'postgres://gw:***@127.0.0.1:5432/db?***',
    )
    expect(redactUrl('postgres://127.0.0.1/db')).toBe('postgres://127.0.0.1/db')
  })

  it('turn on WAL for SQLite', async () => {
    const path = join(root, 'wal', 'gateway.db')
    const storage = await openStorage({ backend: 'sqlite', path })
    await storage.ping()
    await storage.close()
    const Database = createRequire(import.meta.url)('better-sqlite3') as typeof import('better-sqlite3')
    const raw = new Database(path, { readonly: true })
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal')
    raw.close()
  })
})
