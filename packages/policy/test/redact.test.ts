import { describe, expect, it } from 'vitest'
import { createRedactor, knownSecretsFrom } from '../src/index.js'
import { HITS, NEAR_MISSES } from './redact-corpus.js'

describe('redaction corpus', () => {
  it.each(HITS.map((hit, index) => [index, hit.kind, hit] as const))(
    'hit %i (%s) is replaced',
    (_, kind, hit) => {
      const out = createRedactor().redact(hit.text)
      expect(out).not.toContain(hit.secret)
      expect(out).toContain(`[REDACTED:${kind}:1]`)
    },
  )

  it.each(NEAR_MISSES.map((text) => [text] as const))('near-miss survives: %s', (text) => {
    expect(createRedactor().redact(text)).toBe(text)
  })

  it('holds enough shapes to mean something', () => {
    expect(HITS.length).toBeGreaterThanOrEqual(30)
    expect(NEAR_MISSES.length).toBeGreaterThanOrEqual(30)
    expect(new Set(HITS.map((hit) => hit.kind)).size).toBeGreaterThanOrEqual(15)
  })
})

describe('createRedactor', () => {
  it('gives the same secret the same placeholder and a new one the next number', () => {
    const [a, b] = HITS.filter((hit) => hit.kind === 'github-token')
    const redactor = createRedactor()
    expect(redactor.redact(`${a!.secret} ${b!.secret} ${a!.secret}`)).toBe(
      '[REDACTED:github-token:1] [REDACTED:github-token:2] [REDACTED:github-token:1]',
    )
    expect(redactor.redact(`again ${b!.secret}`)).toBe('again [REDACTED:github-token:2]')
    expect(redactor.count).toBe(2)
  })

  it('keeps the context around a narrowed secret', () => {
    const out = createRedactor().redact('postgres://admin:admin@db/app')
    expect(out).toBe('postgres://admin:[REDACTED:password:1]@db/app')
  })

  it('replaces the exact values of the engine credential variables, named by variable', () => {
    const key = 'plain-looking-value-42'
    const redactor = createRedactor({ known: knownSecretsFrom({ OPENAI_API_KEY: key, HOME: '/home/u' }) })
    expect(redactor.redact(`OPENAI_API_KEY=${key}\nHOME=/home/u`)).toBe(
      'OPENAI_API_KEY=[REDACTED:OPENAI_API_KEY:1]\nHOME=/home/u',
    )
  })

  it('takes extra credential names from settings and ignores values too short to match safely', () => {
    const known = knownSecretsFrom({ MY_GATEWAY_KEY: 'gw-value-123456', ANTHROPIC_API_KEY: 'x' }, [
      'MY_GATEWAY_KEY',
    ])
    expect(known).toEqual([{ name: 'MY_GATEWAY_KEY', value: 'gw-value-123456' }])
    expect(createRedactor({ known: [{ name: 'K', value: 'short' }] }).redact('short')).toBe('short')
  })

  it('does not redact a placeholder again', () => {
    const [hit] = HITS.filter((h) => h.kind === 'github-token')
    const redactor = createRedactor()
    const once = redactor.redact(`GITHUB_TOKEN=${hit!.secret}`)
    expect(redactor.redact(once)).toBe(once)
    expect(once).toBe('GITHUB_TOKEN=[REDACTED:github-token:1]')
  })

  it('redacts every string of a record but leaves provider-opaque fields and unchanged objects alone', () => {
    const [hit] = HITS.filter((h) => h.kind === 'npm-token')
    const redactor = createRedactor()
    const clean = { type: 'text', text: 'nothing here' }
    const record = {
      type: 'message',
      message: {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: `saw ${hit!.secret}`, signature: hit!.secret },
          { type: 'redacted_thinking', data: hit!.secret },
          clean,
        ],
      },
    }
    const out = redactor.redactValue(record)
    expect(out.message.content[0]).toEqual({
      type: 'thinking',
      thinking: 'saw [REDACTED:npm-token:1]',
      signature: hit!.secret,
    })
    expect(out.message.content[1]).toEqual({ type: 'redacted_thinking', data: hit!.secret })
    expect(out.message.content[2]).toBe(clean)
    expect(redactor.redactValue(clean)).toBe(clean)
    expect((record.message.content[0] as { thinking: string }).thinking).toBe(`saw ${hit!.secret}`)
  })
})
