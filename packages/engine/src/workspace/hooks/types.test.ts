import { HOOK_EVENTS as SETTINGS_HOOK_EVENTS } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { HOOK_EVENTS } from './types.js'

describe('hook events', () => {
  it('are exactly the events settings may configure', () => {
    expect([...HOOK_EVENTS].sort()).toEqual([...SETTINGS_HOOK_EVENTS].sort())
  })
})
