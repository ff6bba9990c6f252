import { DEFAULT_SETTINGS } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { gatedSettings, withholdGated } from './trust-gating.js'

describe('trust gating', () => {
  it('maps every policy category onto a real settings key', () => {
    for (const { category, path } of gatedSettings()) {
      let holder: unknown = DEFAULT_SETTINGS
      for (const key of path.split('.')) holder = (holder as Record<string, unknown> | undefined)?.[key]
      expect(holder, `${category} → ${path}`).not.toBeUndefined()
    }
  })

  it('never gates deny or ask rules', () => {
    const paths = gatedSettings().map(({ path }) => path)
    expect(paths).not.toContain('permissions.deny')
    expect(paths).not.toContain('permissions.ask')
  })

  it('reports only categories that carry a value', () => {
    const result = withholdGated(
      { hooks: {}, shell: { sandbox: { enabled: true } }, permissions: { deny: ['X'] } },
      gatedSettings(),
    )
    expect(result.withheld).toEqual(['shell'])
    expect(result.data).toEqual({ permissions: { deny: ['X'] } })
  })
})
