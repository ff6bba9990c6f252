/** Planning Gemini's explicit context caches (pure): when to cache, reuse, recreate, or not at all. */
import type { Content, GenerateContentParameters } from '@google/genai'
import { describe, expect, it } from 'vitest'
import { type CacheEntry, hash, minimumCacheTokens, planCache, prefixKey, withCache } from './cache-plan.js'

const LONG = 'x'.repeat(8_000 * 4) // about 8,000 tokens of system prompt
const user = (text: string): Content => ({ role: 'user', parts: [{ text }] })
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] })

function parameters(contents: Content[], system = LONG, id = 'gemini-2.5-pro'): GenerateContentParameters {
  return {
    model: id,
    contents,
    config: {
      maxOutputTokens: 1000,
      systemInstruction: { parts: [{ text: system }] },
      tools: [{ functionDeclarations: [{ name: 'Read', description: 'read a file' }] }],
    },
  }
}

function entryFor(
  p: GenerateContentParameters,
  count: number,
  overrides: Partial<CacheEntry> = {},
): CacheEntry {
  return {
    key: prefixKey(p),
    name: 'cachedContents/a',
    contentsCount: count,
    contentsHash: hash((p.contents as Content[]).slice(0, count)),
    tokens: 8_100,
    expiresAt: 1_000_000,
    ...overrides,
  }
}

describe('Gemini context cache planning', () => {
  it('knows the minimum cacheable size per model, the largest for models it does not list', () => {
    expect(minimumCacheTokens('gemini-2.5-flash')).toBe(1024)
    expect(minimumCacheTokens('gemini-3-flash-preview')).toBe(1024)
    expect(minimumCacheTokens('gemini-2.5-flash-lite')).toBe(2048)
    expect(minimumCacheTokens('gemini-2.5-pro')).toBe(4096)
    expect(minimumCacheTokens('gemini-4-ultra')).toBe(4096)
  })

  it('caches the system instruction, tools and every message but the newest when above the minimum', () => {
    const p = parameters([user('a'), model('b'), user('c')])
    const plan = planCache(p, prefixKey(p), undefined, 0, new Set())
    expect(plan).toMatchObject({ type: 'create', contentsCount: 2 })
    if (plan.type !== 'create') return
    expect(plan.estimatedTokens).toBeGreaterThanOrEqual(8_000)
    expect(plan.replaces).toBeUndefined()
  })

  it('does not cache a prefix below the model minimum', () => {
    const p = parameters([user('hello')], 'You are terse.')
    expect(planCache(p, prefixKey(p), undefined, 0, new Set())).toEqual({
      type: 'none',
      reason: 'below minimum',
    })
    // The same prefix is enough for a model with a lower minimum.
    const flash = parameters([user('hello')], 'y'.repeat(1_100 * 4), 'gemini-2.5-flash')
    expect(planCache(flash, prefixKey(flash), undefined, 0, new Set()).type).toBe('create')
  })

  it('reuses a cache whose contents start the request, sending only the rest without system or tools', () => {
    const first = parameters([user('a'), model('b'), user('c')])
    const entry = entryFor(first, 2)
    const later = parameters([user('a'), model('b'), user('c'), model('d'), user('e')])
    expect(prefixKey(later)).toBe(entry.key)
    const plan = planCache(later, entry.key, entry, 0, new Set())
    expect(plan).toEqual({ type: 'use', entry })
    const sent = withCache(later, entry)
    expect(sent.contents).toEqual([user('c'), model('d'), user('e')])
    expect(sent.config).toEqual({ maxOutputTokens: 1000, cachedContent: 'cachedContents/a' })
  })

  it('recreates when the history changed under the cache (a compaction, a rewind)', () => {
    const first = parameters([user('a'), model('b'), user('c')])
    const entry = entryFor(first, 2)
    const compacted = parameters([user('summary of a and b'), user('c')])
    const plan = planCache(compacted, entry.key, entry, 0, new Set())
    expect(plan).toMatchObject({ type: 'create', contentsCount: 1, replaces: entry })
  })

  it('recreates once the uncached history is as large as the cache, not before', () => {
    const first = parameters([user('a')])
    const entry = entryFor(first, 0)
    const small = parameters([user('a'), model('b'), user('c')])
    expect(planCache(small, entry.key, entry, 0, new Set()).type).toBe('use')
    const grown = parameters([user('a'), model('z'.repeat(9_000 * 4)), user('c')])
    expect(planCache(grown, entry.key, entry, 0, new Set())).toMatchObject({
      type: 'create',
      contentsCount: 2,
      replaces: entry,
    })
  })

  it('recreates a cache about to expire', () => {
    const p = parameters([user('a'), model('b'), user('c')])
    const entry = entryFor(p, 2, { expiresAt: 100_000 })
    expect(planCache(p, entry.key, entry, 60_000, new Set()).type).toBe('use')
    expect(planCache(p, entry.key, entry, 80_000, new Set()).type).toBe('create')
  })

  it('does not try again a creation the server refused, and keeps using a cache it still has', () => {
    const p = parameters([user('a'), model('b'), user('c')])
    const refused = new Set([`${prefixKey(p)}:${hash((p.contents as Content[]).slice(0, 2))}`])
    expect(planCache(p, prefixKey(p), undefined, 0, refused)).toEqual({
      type: 'none',
      reason: 'refused before',
    })
    const entry = entryFor(p, 0)
    const grown = parameters([user('a'), model('z'.repeat(9_000 * 4)), user('c')])
    const grownRefused = new Set([`${entry.key}:${hash((grown.contents as Content[]).slice(0, 2))}`])
    expect(planCache(grown, entry.key, entry, 0, grownRefused)).toEqual({ type: 'use', entry })
  })

  it('a different system prompt or tool list is a different prefix', () => {
    const a = parameters([user('a')])
    const b = parameters([user('a')], `${LONG}!`)
    expect(prefixKey(a)).not.toBe(prefixKey(b))
  })
})
