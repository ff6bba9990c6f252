import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { pathExists } from './path-exists.js'

describe('pathExists', () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = undefined
  })

  it('sees files and folders, not missing paths; a dangling link only with followLinks: false', async () => {
    dir = mkdtempSync(join(tmpdir(), 'z-exists-'))
    writeFileSync(join(dir, 'file'), 'x')
    symlinkSync(join(dir, 'gone'), join(dir, 'dangling'))
    expect(await pathExists(join(dir, 'file'))).toBe(true)
    expect(await pathExists(dir)).toBe(true)
    expect(await pathExists(join(dir, 'gone'))).toBe(false)
    expect(await pathExists(join(dir, 'dangling'))).toBe(false)
    expect(await pathExists(join(dir, 'dangling'), { followLinks: false })).toBe(true)
  })
})
