import { describe, expect, it } from 'vitest'
import { PERMISSION_MODES, parsePermissionMode } from '../src/index.js'

describe('parsePermissionMode', () => {
  it('accepts every canonical mode and the bypassPermissions alias', () => {
    for (const mode of PERMISSION_MODES) expect(parsePermissionMode(mode)).toBe(mode)
    expect(parsePermissionMode('bypassPermissions')).toBe('bypass')
  })

  it('refuses anything else', () => {
    for (const value of ['Bypass', 'auto', '', 3, null, undefined, 'toString', '__proto__']) {
      expect(parsePermissionMode(value)).toBeUndefined()
    }
  })
})
