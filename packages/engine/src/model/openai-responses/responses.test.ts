import { describe, expect, it } from 'vitest'
import type { ModelRequest } from '../types.js'
import { toResponsesRequest } from './request.js'

describe('responses request shape', () => {
  it('maps system to instructions, tools, tool choice and multimodal tool output', () => {
    const request: ModelRequest = {
      model: 'gpt-5',
      system: [
        { text: 'base', cacheable: true },
        { text: 'note', cacheable: false },
      ],
      tools: [{ name: 'Read', description: 'read', inputSchema: { type: 'object' } }],
      messages: [
        {
          id: '1',
          role: 'user',
          content: [
            { type: 'text', text: 'see' },
            { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
          ],
        },
        {
          id: '2',
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'no payload, from another provider' },
            { type: 'text', text: 'reading' },
            { type: 'tool_use', id: 'call_1', name: 'Read', input: { path: 'a' } },
          ],
        },
        {
          id: '3',
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolUseId: 'call_1',
              content: [
                { type: 'text', text: 'pixels' },
                { type: 'image', source: { type: 'base64', mediaType: 'image/jpeg', data: 'BBBB' } },
              ],
              isError: false,
            },
          ],
        },
      ],
      maxOutputTokens: 500,
      toolChoice: { type: 'tool', name: 'Read' },
      reasoning: { effort: 'low' },
      metadata: { userId: 'u-1' },
    }
    const body = toResponsesRequest(request)
    expect(body).toMatchObject({
      model: 'gpt-5',
      instructions: 'base\n\nnote',
      store: false,
      stream: true,
      include: ['reasoning.encrypted_content'],
      max_output_tokens: 500,
      tool_choice: { type: 'function', name: 'Read' },
      reasoning: { effort: 'low', summary: 'auto' },
      safety_identifier: 'u-1',
      tools: [
        {
          type: 'function',
          name: 'Read',
          description: 'read',
          parameters: { type: 'object' },
          strict: false,
        },
      ],
    })
    expect(body.input).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'see' },
          { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'auto' },
        ],
      },
      { role: 'assistant', content: 'reading' },
      { type: 'function_call', call_id: 'call_1', name: 'Read', arguments: '{"path":"a"}' },
      {
        type: 'function_call_output',
        call_id: 'call_1',
        output: [
          { type: 'input_text', text: 'pixels' },
          { type: 'input_image', image_url: 'data:image/jpeg;base64,BBBB', detail: 'auto' },
        ],
      },
    ])
  })

  it('asks for encrypted reasoning except from models known not to reason', () => {
    const base: ModelRequest = { model: 'gpt-4.1', system: [], tools: [], messages: [], maxOutputTokens: 100 }
    expect(toResponsesRequest(base).include).toBeUndefined()
    expect(toResponsesRequest({ ...base, model: 'gpt-5-mini' }).include).toEqual([
      'reasoning.encrypted_content',
    ])
    expect(toResponsesRequest({ ...base, model: 'gpt-7-preview' }).include).toEqual([
      'reasoning.encrypted_content',
    ])
  })
})
