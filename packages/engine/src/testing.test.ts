import { describe, expect, it } from 'vitest'
import * as testing from './testing.js'

describe('@z-engine/engine/testing entry', () => {
  it('exports the scripted client, the script parser and the scripted server', () => {
    expect(typeof testing.ScriptedClient).toBe('function')
    expect(typeof testing.parseScript).toBe('function')
    expect(typeof testing.startScriptedServer).toBe('function')
  })
})
