import type { Message, ToolSpec } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { MEDIA_TOKENS } from './limits.js'
import {
  estimateBlockTokens,
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateSystemTokens,
  estimateTextTokens,
  estimateToolsTokens,
} from './tokens.js'

describe('estimateTextTokens', () => {
  it('is characters / 4 rounded up', () => {
    expect(estimateTextTokens('')).toBe(0)
    expect(estimateTextTokens('a')).toBe(1)
    expect(estimateTextTokens('abcd')).toBe(1)
    expect(estimateTextTokens('abcde')).toBe(2)
    expect(estimateTextTokens('x'.repeat(4000))).toBe(1000)
  })

  it('counts each Chinese, Japanese or Korean character as one token', () => {
    expect(estimateTextTokens('你好世界')).toBe(4)
    expect(estimateTextTokens('こんにちは')).toBe(5)
    expect(estimateTextTokens('カタカナ')).toBe(4)
    expect(estimateTextTokens('안녕하세요')).toBe(5)
    // 2 CJK + 5 other characters (ceil(5 / 4) = 2)
    expect(estimateTextTokens('hi 你好 yo')).toBe(2 + 2)
    // A supplementary-plane ideograph (extension B) is one character, one token.
    expect(estimateTextTokens('𠀀')).toBe(1)
  })

  it('treats non-CJK scripts and emoji as ordinary characters', () => {
    expect(estimateTextTokens('привет')).toBe(2)
    expect(estimateTextTokens('é'.repeat(8))).toBe(2)
    // An emoji is a surrogate pair but one character.
    expect(estimateTextTokens('😀😀😀😀')).toBe(1)
  })
})

describe('block and message estimates', () => {
  it('counts media as 1,600 and tool calls by name and input', () => {
    expect(MEDIA_TOKENS).toBe(1600)
    expect(estimateBlockTokens({ type: 'image', source: { type: 'url', url: 'https://x/y.png' } })).toBe(1600)
    const input = { path: 'a.ts' }
    expect(estimateBlockTokens({ type: 'tool_use', id: 't', name: 'Read', input })).toBe(
      1 + Math.ceil(JSON.stringify(input).length / 4),
    )
    expect(
      estimateBlockTokens({
        type: 'tool_result',
        toolUseId: 't',
        isError: false,
        content: [
          { type: 'text', text: 'abcdefgh' },
          { type: 'image', source: { type: 'url', url: 'u' } },
        ],
      }),
    ).toBe(2 + 1600)
    expect(estimateBlockTokens({ type: 'thinking', thinking: 'abcd' })).toBe(1)
  })

  it('sums messages', () => {
    const messages: Message[] = [
      { id: '1', role: 'user', content: [{ type: 'text', text: 'abcd' }] },
      {
        id: '2',
        role: 'assistant',
        content: [
          { type: 'text', text: 'abcdefgh' },
          { type: 'redacted_thinking', data: 'abcd' },
        ],
      },
    ]
    expect(estimateMessageTokens(messages[1]!)).toBe(3)
    expect(estimateMessagesTokens(messages)).toBe(4)
  })

  it('counts tools by name, description and schema', () => {
    const schema = { type: 'object', properties: { path: { type: 'string' } } }
    const tools: ToolSpec[] = [{ name: 'Read', description: 'Reads a file.', inputSchema: schema }]
    expect(estimateToolsTokens(tools)).toBe(
      1 + Math.ceil(13 / 4) + Math.ceil(JSON.stringify(schema).length / 4),
    )
    expect(estimateSystemTokens([{ text: 'abcd' }, { text: 'abcde' }])).toBe(3)
  })
})
