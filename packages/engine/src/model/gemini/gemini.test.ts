/**
 * The Gemini adapter's pure parts: schema conversion to Gemini's subset (every built-in tool's
 * schema included), the request builder, chunk translation and error reshaping. The wire itself is
 * covered with the real SDK in adapters.test.ts and the engine's end-to-end tests.
 */
import type { GenerateContentResponse } from '@google/genai'
import {
  agentTool,
  applyAgentChangesTool,
  askUserQuestionTool,
  bashTool,
  createWebFetchTool,
  editTool,
  exitPlanModeTool,
  globTool,
  grepTool,
  jobKillTool,
  jobOutputTool,
  listMcpResourcesTool,
  lspTool,
  multiEditTool,
  notebookEditTool,
  readMcpResourceTool,
  readTool,
  skillTool,
  todoWriteTool,
  verifyTool,
  writeTool,
} from '@z-engine/tools'
import { describe, expect, it } from 'vitest'
import { classifyError } from '../errors.js'
import type { AttemptEvent } from '../run-stream.js'
import type { ModelRequest } from '../types.js'
import { GeminiApiError, normalizeGeminiError } from './errors.js'
import { toGeminiRequest } from './request.js'
import { type GeminiSchema, toGeminiParameters, toGeminiSchema } from './schema.js'
import { toGeminiSignature } from './signature.js'
import { geminiEvents } from './stream.js'

const NODE_KEYS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'properties',
  'required',
  'anyOf',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
  'pattern',
  'default',
  'example',
])
const TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT'])

/** Every rule of Gemini's schema subset the API enforces with a 400; returns the violations. */
function violations(node: GeminiSchema, path = '$'): string[] {
  const found: string[] = []
  for (const key of Object.keys(node))
    if (!NODE_KEYS.has(key)) found.push(`${path}: ${key} is not in the subset`)
  if (node.type !== undefined && !TYPES.has(node.type)) found.push(`${path}: type ${node.type}`)
  if (node.type !== undefined && node.anyOf !== undefined) found.push(`${path}: type next to anyOf`)
  if (node.properties !== undefined && node.type !== 'OBJECT')
    found.push(`${path}: properties on ${node.type}`)
  if (node.items !== undefined && node.type !== 'ARRAY') found.push(`${path}: items on ${node.type}`)
  for (const name of node.required ?? [])
    if (!(name in (node.properties ?? {}))) found.push(`${path}: required ${name} is not a property`)
  if (node.enum?.some((value) => typeof value !== 'string')) found.push(`${path}: non-string enum`)
  for (const [name, child] of Object.entries(node.properties ?? {}))
    found.push(...violations(child, `${path}.${name}`))
  if (node.items) found.push(...violations(node.items, `${path}[]`))
  for (const [index, branch] of (node.anyOf ?? []).entries())
    found.push(...violations(branch, `${path}|${index}`))
  return found
}

describe('Gemini schema conversion', () => {
  it('every built-in tool schema converts to a declaration Gemini accepts', () => {
    const tools = [
      agentTool,
      applyAgentChangesTool,
      askUserQuestionTool,
      bashTool,
      createWebFetchTool({}),
      editTool,
      exitPlanModeTool,
      globTool,
      grepTool,
      jobKillTool,
      jobOutputTool,
      listMcpResourcesTool,
      lspTool,
      multiEditTool,
      notebookEditTool,
      readMcpResourceTool,
      readTool,
      skillTool,
      todoWriteTool,
      verifyTool,
      writeTool,
    ]
    for (const tool of tools) {
      const parameters = toGeminiParameters(tool.inputSchema)
      if (parameters === undefined) {
        // Only a tool without arguments may omit parameters.
        expect(
          Object.keys((tool.inputSchema as { properties?: object }).properties ?? {}),
          tool.name,
        ).toEqual([])
        continue
      }
      expect(violations(parameters), tool.name).toEqual([])
      expect(parameters.type).toBe('OBJECT')
    }
    // additionalProperties: false is in our schemas and is dropped, never sent.
    expect(JSON.stringify(toGeminiParameters(readTool.inputSchema))).not.toContain('additionalProperties')
  })

  it('converts what Gemini rejects and drops what has no Gemini form, deliberately', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      $defs: { point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x', 'ghost'] } },
      properties: {
        maybe: { type: ['string', 'null'], format: 'uri', description: 'A URL.' },
        either: { type: ['string', 'integer'] },
        union: { oneOf: [{ type: 'string' }, { type: 'number' }], description: 'One of two.' },
        optionalPoint: { anyOf: [{ $ref: '#/$defs/point' }, { type: 'null' }] },
        fixed: { const: 'on' },
        level: { enum: [1, 2, 3], type: 'integer' },
        count: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10, format: 'int32' },
        tags: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true, maxItems: 5 },
        merged: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
            { properties: { b: { type: 'boolean' } } },
          ],
        },
        map: { type: 'object', additionalProperties: { type: 'string' } },
        tree: { $ref: '#' },
        shown: { type: 'string', examples: ['e.g.'], default: 'x', pattern: '^[a-z]+$' },
      },
      required: ['fixed', 'nope'],
    }
    const converted = toGeminiParameters(schema)!
    expect(violations(converted)).toEqual([])
    const p = converted.properties!
    expect(p.maybe).toEqual({ type: 'STRING', nullable: true, description: 'A URL.' })
    expect(p.either).toEqual({ anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }] })
    expect(p.union).toEqual({ anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }], description: 'One of two.' })
    expect(p.optionalPoint).toEqual({
      type: 'OBJECT',
      properties: { x: { type: 'NUMBER' } },
      required: ['x'],
      nullable: true,
    })
    expect(p.fixed).toEqual({ type: 'STRING', enum: ['on'] })
    expect(p.level).toEqual({ type: 'INTEGER', description: 'One of: 1, 2, 3.' })
    expect(p.count).toEqual({ type: 'INTEGER', format: 'int32', minimum: 1, maximum: 9 })
    expect(p.tags).toEqual({ type: 'ARRAY', maxItems: '5', items: { type: 'STRING', minLength: '1' } })
    expect(p.merged).toEqual({
      type: 'OBJECT',
      properties: { a: { type: 'STRING' }, b: { type: 'BOOLEAN' } },
      required: ['a'],
    })
    expect(p.map).toEqual({ type: 'OBJECT' })
    // A recursive reference is inlined once; the recursion below it becomes a plain object.
    expect(p.tree?.type).toBe('OBJECT')
    expect(p.tree?.properties?.tree).toEqual({ type: 'OBJECT' })
    expect(p.shown).toEqual({ type: 'STRING', pattern: '^[a-z]+$', default: 'x', example: 'e.g.' })
    expect(converted.required).toEqual(['fixed'])
  })

  it('omits parameters for a tool without arguments (Gemini rejects an empty OBJECT)', () => {
    expect(toGeminiParameters({ type: 'object', properties: {} })).toBeUndefined()
    expect(toGeminiParameters({})).toBeUndefined()
    expect(toGeminiSchema({ type: 'null' })).toEqual({ nullable: true })
  })
})

function baseRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'gemini-2.5-flash',
    system: [
      { text: 'Stable.', cacheable: true },
      { text: '', cacheable: false },
      { text: 'Note.', cacheable: false },
    ],
    tools: [{ name: 'Read', description: 'read', inputSchema: { type: 'object', properties: {} } }],
    messages: [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    maxOutputTokens: 4096,
    ...overrides,
  }
}

describe('Gemini request', () => {
  it('sends the system sections as the system instruction and a tool without arguments without parameters', () => {
    const built = toGeminiRequest(baseRequest({ toolChoice: { type: 'tool', name: 'Read' } }))
    expect(built.config?.systemInstruction).toEqual({ parts: [{ text: 'Stable.' }, { text: 'Note.' }] })
    expect(built.config?.tools).toEqual([{ functionDeclarations: [{ name: 'Read', description: 'read' }] }])
    expect(built.config?.toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['Read'] },
    })
    expect(built.config?.thinkingConfig).toBeUndefined()
    expect(built.contents).toEqual([{ role: 'user', parts: [{ text: 'hi' }] }])
  })

  it('thinking: a level for Gemini 3, a budget below the output limit for 2.5', () => {
    const three = toGeminiRequest(
      baseRequest({ model: 'gemini-3-pro-preview', reasoning: { effort: 'medium' } }),
    )
    expect(three.config?.thinkingConfig).toEqual({ includeThoughts: true, thinkingLevel: 'HIGH' })
    const flash3 = toGeminiRequest(
      baseRequest({ model: 'gemini-3-flash-preview', reasoning: { effort: 'minimal' } }),
    )
    expect(flash3.config?.thinkingConfig).toEqual({ includeThoughts: true, thinkingLevel: 'MINIMAL' })
    const budget = toGeminiRequest(baseRequest({ reasoning: { effort: 'high' }, maxOutputTokens: 4096 }))
    expect(budget.config?.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 4095 })
    const given = toGeminiRequest(baseRequest({ reasoning: { effort: 'low', budgetTokens: 1500 } }))
    expect(given.config?.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 1500 })
  })

  it("sends Gemini's signatures back on their parts and drops other providers' thinking", () => {
    const built = toGeminiRequest(
      baseRequest({
        messages: [
          { id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }] },
          {
            id: 'a1',
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'Anthropic thought', signature: 'anthropic-sig' },
              { type: 'thinking', thinking: 'unsigned' },
              { type: 'thinking', thinking: 'Gemini thought', signature: toGeminiSignature('t1') },
              { type: 'text', text: 'Reading.' },
              { type: 'thinking', thinking: '', signature: toGeminiSignature('c1') },
              { type: 'tool_use', id: 'call_1', name: 'Read', input: { path: 'a' } },
              { type: 'thinking', thinking: '', signature: toGeminiSignature('end') },
            ],
          },
          {
            id: 'u2',
            role: 'user',
            content: [
              {
                type: 'tool_result',
                toolUseId: 'call_1',
                isError: true,
                content: [
                  { type: 'text', text: 'no such file' },
                  { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'AAAA' } },
                ],
              },
            ],
          },
        ],
      }),
    )
    expect(built.contents).toEqual([
      { role: 'user', parts: [{ text: 'hi' }] },
      {
        role: 'model',
        parts: [
          { text: 'Gemini thought', thought: true, thoughtSignature: 't1' },
          { text: 'Reading.' },
          { functionCall: { id: 'call_1', name: 'Read', args: { path: 'a' } }, thoughtSignature: 'c1' },
          { text: '', thoughtSignature: 'end' },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'call_1', name: 'Read', response: { error: 'no such file' } } },
          { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
        ],
      },
    ])
  })
})

async function collect(chunks: object[]): Promise<AttemptEvent[]> {
  const events: AttemptEvent[] = []
  async function* source() {
    for (const chunk of chunks) yield chunk as GenerateContentResponse
  }
  for await (const event of geminiEvents(source())) events.push(event)
  return events
}

describe('Gemini stream', () => {
  it('usage: cached tokens are read from the prompt count, thoughts count as output', async () => {
    const events = await collect([
      {
        candidates: [{ content: { parts: [{ text: 'ok' }] }, finishReason: 'STOP' }],
        usageMetadata: {
          promptTokenCount: 10_000,
          cachedContentTokenCount: 8_000,
          candidatesTokenCount: 40,
          thoughtsTokenCount: 60,
        },
      },
    ])
    expect(events.find((event) => event.type === 'usage')).toEqual({
      type: 'usage',
      usage: { inputTokens: 2_000, outputTokens: 100, cacheReadTokens: 8_000, cacheWriteTokens: 0 },
    })
    expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'end_turn', providerStopReason: 'STOP' })
  })

  it('a signed text part starts its own block after an empty signed thinking block', async () => {
    const events = await collect([
      { candidates: [{ content: { parts: [{ text: 'Hel' }] } }] },
      {
        candidates: [
          { content: { parts: [{ text: 'lo', thoughtSignature: 's' }] }, finishReason: 'MAX_TOKENS' },
        ],
      },
    ])
    const ends = events.filter((event) => event.type === 'text_end' || event.type === 'thinking_end')
    expect(ends).toEqual([
      { type: 'text_end', index: 0, text: 'Hel' },
      { type: 'thinking_end', index: 1, thinking: '', signature: toGeminiSignature('s') },
      { type: 'text_end', index: 2, text: 'lo' },
    ])
    expect(events.at(-1)).toMatchObject({ stopReason: 'max_tokens' })
  })

  it('a blocked prompt is a refusal; a stream without a finish reason is an error', async () => {
    const blocked = await collect([{ promptFeedback: { blockReason: 'SAFETY' } }])
    expect(blocked.at(-1)).toEqual({
      type: 'finish',
      stopReason: 'refusal',
      providerStopReason: 'BLOCKED_SAFETY',
    })
    await expect(collect([{ candidates: [{ content: { parts: [{ text: 'cut' }] } }] }])).rejects.toThrow(
      /without a finish reason/,
    )
  })
})

describe('Gemini errors', () => {
  const apiError = (status: number, body: object): Error =>
    Object.assign(new Error(JSON.stringify(body)), { name: 'ApiError', status })

  it('quota: rate limited, waiting the RetryInfo delay', () => {
    const error = normalizeGeminiError(
      apiError(429, {
        error: {
          code: 429,
          status: 'RESOURCE_EXHAUSTED',
          message: 'Quota exceeded.',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '17s' }],
        },
      }),
    )
    expect(error).toBeInstanceOf(GeminiApiError)
    expect(classifyError(error, undefined, 'Gemini')).toMatchObject({
      kind: 'rate_limited',
      status: 429,
      retryAfterMs: 17_000,
      providerMessage: expect.stringContaining('Quota exceeded.'),
    })
  })

  it('a retry-after header wins over RetryInfo', () => {
    const error = normalizeGeminiError(
      apiError(429, {
        error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'q', details: [{ retryDelay: '9s' }] },
      }),
      new Headers({ 'retry-after': '2' }),
    )
    expect(classifyError(error, undefined, 'Gemini').retryAfterMs).toBe(2000)
  })

  it.each([
    [400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', 'authentication'],
    [403, 'PERMISSION_DENIED', 'The caller does not have permission', 'permission'],
    [503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.', 'overloaded'],
    [
      400,
      'INVALID_ARGUMENT',
      'The input token count (1203455) exceeds the maximum number of tokens allowed (1048576).',
      'context_overflow',
    ],
    [404, 'NOT_FOUND', 'models/gemini-9 is not found for API version v1beta', 'not_found'],
    [500, 'INTERNAL', 'An internal error has occurred.', 'server'],
    [400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.', 'invalid_request'],
  ])('%i %s → %s', (status, code, message, kind) => {
    const error = normalizeGeminiError(apiError(status, { error: { code: status, status: code, message } }))
    expect(classifyError(error, undefined, 'Gemini')).toMatchObject({ kind, status })
  })

  it('errors that are not API errors pass through unchanged', () => {
    const network = new TypeError('fetch failed')
    expect(normalizeGeminiError(network)).toBe(network)
    expect(classifyError(network, undefined, 'Gemini').kind).toBe('network')
  })
})
