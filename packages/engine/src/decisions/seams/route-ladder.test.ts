import { describe, expect, it } from 'vitest'
import { isStronger, modelStrength, strongerModels } from './route-ladder.js'

describe('route ladder (docs/decisions.md "Route")', () => {
  it('ranks models by catalog list price: output per million, then input', () => {
    expect(isStronger('anthropic/claude-sonnet-4-6', 'anthropic/claude-haiku-4-5')).toBe(true)
    expect(isStronger('claude-haiku-4-5', 'anthropic/claude-sonnet-4-6')).toBe(false)
    // Same price: neither is stronger, so neither is a raise.
    expect(isStronger('anthropic/claude-sonnet-4-5', 'anthropic/claude-sonnet-4-6')).toBe(false)
    expect(isStronger('openai/gpt-5', 'openai/gpt-5-mini')).toBe(true)
  })

  it('cannot rank what the catalog does not price: unknown, open-weight and scripted models', () => {
    expect(modelStrength('openai-chat/my-local-model')).toBeUndefined()
    expect(modelStrength('openai-chat/qwen3-coder')).toBeUndefined()
    expect(modelStrength('scripted:x')).toBeUndefined()
    expect(isStronger('anthropic/claude-opus-4-6', 'openai-chat/my-local-model')).toBe(false)
  })

  it('offers only configured models above the current one that can be reached, weakest first', () => {
    const ladder = ['anthropic/claude-opus-4-6', 'anthropic/claude-haiku-4-5', 'anthropic/claude-sonnet-4-6']
    expect(strongerModels('anthropic/claude-haiku-4-5', ladder, () => true)).toEqual([
      'anthropic/claude-sonnet-4-6',
      'anthropic/claude-opus-4-6',
    ])
    expect(strongerModels('anthropic/claude-haiku-4-5', ladder, (ref) => !ref.includes('opus'))).toEqual([
      'anthropic/claude-sonnet-4-6',
    ])
    expect(strongerModels('anthropic/claude-opus-4-6', ladder, () => true)).toEqual([])
    expect(strongerModels('openai-chat/local', ladder, () => true)).toEqual([])
  })
})
