import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { DEFAULT_SETTINGS } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { DeferredSessionSandbox } from './session-sandbox.js'

const base = { settings: DEFAULT_SETTINGS, home: tmpdir(), env: { PATH: '/usr/bin:/bin' } }
const none = {
  kind: 'none' as const,
  reason: 'bubblewrap (bwrap) is not installed',
  install: 'apt install bubblewrap',
}
const bwrapInstalled = ['/usr/bin/bwrap', '/usr/local/bin/bwrap'].some((path) => existsSync(path))

describe('DeferredSessionSandbox (issue 17: the probe is off the startup path)', () => {
  it('opens once, on first need, and says why when there is no backend', async () => {
    const opened: unknown[] = []
    const sandbox = new DeferredSessionSandbox({ ...base, backend: none }, (value) => opened.push(value))
    // Nothing opened until asked: closing a session that never needed it does nothing.
    await sandbox.dispose()
    expect(opened).toEqual([])
    const [facts, prepared] = await Promise.all([
      sandbox.facts(),
      sandbox.prepare({ root: '/proj', additionalDirectories: [] }),
    ])
    expect(facts).toEqual({ active: false, autoAllow: false, excludedCommands: [], writableRoots: [] })
    expect(prepared).toBeUndefined()
    expect(opened).toHaveLength(1)
    expect(opened[0]).toMatchObject({
      warning: expect.stringMatching(/not installed.*apt install bubblewrap/),
    })
    await sandbox.dispose()
  })

  it.skipIf(!bwrapInstalled)(
    'with bubblewrap, makes its temp folder when opened and removes it on dispose',
    async () => {
      const sandbox = new DeferredSessionSandbox(base)
      const facts = await sandbox.facts()
      expect(facts.active).toBe(true)
      const tmp = facts.writableRoots?.[0] ?? ''
      expect(tmp).toContain('z-engine-sandbox-')
      expect(existsSync(tmp)).toBe(true)
      expect((await sandbox.opened()).warning).toBeUndefined()
      await sandbox.dispose()
      expect(existsSync(tmp)).toBe(false)
    },
  )
})
