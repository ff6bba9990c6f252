import type { Message } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { contextBreakdown } from './breakdown.js'
import { buildSystem } from './prompt/system.js'

describe('contextBreakdown', () => {
  it('splits the request by prompt layer, in prompt order, leaving out empty layers', () => {
    const system = buildSystem({
      base: 'b'.repeat(400),
      instructions: 'i'.repeat(40),
      repoMap: 'm'.repeat(80),
    })
    const messages: Message[] = [
      {
        id: 'u1',
        role: 'user',
        content: [
          { type: 'text', text: 'hello world!' },
          { type: 'image', source: { type: 'url', url: 'u' } },
        ],
      },
      {
        id: 'a1',
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'tttt' },
          { type: 'tool_use', id: 'c1', name: 'Read', input: {} },
        ],
      },
      {
        id: 'u2',
        role: 'user',
        content: [
          {
            type: 'tool_result',
            toolUseId: 'c1',
            isError: false,
            content: [{ type: 'text', text: 'r'.repeat(400) }],
          },
        ],
      },
    ]
    const breakdown = contextBreakdown({
      windowTokens: 10_000,
      system,
      tools: [{ name: 'Read', description: 'dddd', inputSchema: {} }],
      messages,
    })
    expect(breakdown.layers).toEqual([
      { layer: 'base', tokens: 100 },
      { layer: 'instructions', tokens: 10 },
      { layer: 'repoMap', tokens: 20 },
      { layer: 'tools', tokens: 1 + 1 + 1 },
      { layer: 'conversation', tokens: 3 + 1 },
      { layer: 'toolCalls', tokens: 1 + 1 },
      { layer: 'toolResults', tokens: 100 },
      { layer: 'media', tokens: 1600 },
    ])
    expect(breakdown.usedTokens).toBe(1839)
    expect(breakdown.freeTokens).toBe(8161)
    expect(breakdown.percent).toBe(18.4)
  })

  it('uses the meter reading for the total when given', () => {
    const breakdown = contextBreakdown({
      windowTokens: 1000,
      system: buildSystem({ base: 'abcd' }),
      tools: [],
      messages: [],
      reading: { tokens: 1200, source: 'reported', reportedTokens: 1100, estimatedTokens: 100 },
    })
    expect(breakdown).toMatchObject({ usedTokens: 1200, freeTokens: 0, percent: 120 })
  })
})
