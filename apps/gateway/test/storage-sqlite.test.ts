import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
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

// Node's built-in SQLite (22.13+) serves where better-sqlite3 did not build; `pnpm test:node 24` runs this.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
const builtinSqlite = major > 22 || (major === 22 && minor >= 13)
describe.runIf(builtinSqlite)('with node:sqlite', () => {
  describeStorageConformance('sqlite (node:sqlite)', {
    fresh: () => {
      current = join(root, `db-${counter++}`, 'gateway.db')
      return openStorage({ backend: 'sqlite', path: current }, { sqliteDriver: 'node:sqlite' })
    },
    reopen: () => openStorage({ backend: 'sqlite', path: current }, { sqliteDriver: 'node:sqlite' }),
  })
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
    // The file header's read and write versions (bytes 18 and 19) are 2 in WAL mode, whatever opened it.
    expect([...readFileSync(path).subarray(18, 20)]).toEqual([2, 2])
  })
})
