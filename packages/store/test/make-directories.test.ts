import { existsSync, statSync } from 'node:fs'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openStore } from '../src/file-store.js'
import { makeDirectories } from '../src/make-directories.js'

describe('makeDirectories', () => {
  it('creates every missing parent with the given mode, and accepts a folder that exists', async () => {
    const root = await mkdtemp(join(tmpdir(), 'z-mkdirs-'))
    const deep = join(root, 'a', 'b', 'c')
    await makeDirectories(deep, 0o700)
    expect(statSync(deep).isDirectory()).toBe(true)
    expect(statSync(join(root, 'a')).mode & 0o777).toBe(0o700)
    await expect(makeDirectories(deep, 0o700)).resolves.toBeUndefined()
  })

  it('fails on a file in the way instead of treating it as a folder', async () => {
    const root = await mkdtemp(join(tmpdir(), 'z-mkdirs-'))
    await writeFile(join(root, 'file'), 'x')
    await expect(makeDirectories(join(root, 'file', 'sub'), 0o700)).rejects.toMatchObject({ code: 'ENOTDIR' })
    await expect(makeDirectories(join(root, 'file'), 0o700)).rejects.toMatchObject({ code: 'EEXIST' })
  })

  // Node 20's recursive mkdir spins forever here (libuv retries the parent); this must return.
  it.runIf(existsSync('/proc/self'))(
    'names the folder that refuses new entries (a data folder under /proc)',
    async () => {
      await expect(makeDirectories('/proc/z-engine-test/data/sessions', 0o700)).rejects.toThrow(
        '/proc does not accept new folders',
      )
    },
  )
})

describe('the file store in a data folder that cannot be created', () => {
  it.runIf(existsSync('/proc/self'))('returns an io error naming the folder instead of hanging', async () => {
    const store = openStore({ dataDir: '/proc/z-engine-test/data' })
    const created = await store.create({ projectRoot: tmpdir() })
    expect(created.ok).toBe(false)
    if (created.ok) return
    expect(created.error.code).toBe('io')
    expect(created.error.message).toContain('/proc does not accept new folders')
  })
})
