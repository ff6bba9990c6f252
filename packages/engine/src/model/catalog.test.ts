import { describe, expect, it } from 'vitest'
import { modelAliasNames, resolveModelAlias } from './aliases.js'
import { findModel, resolveModelInfo, UNKNOWN_CONTEXT_WINDOW } from './catalog.js'
import { costOf, promptTokensOf } from './cost.js'
import { formatModelRef, parseModelRef } from './model-ref.js'

describe('model catalog', () => {
  it('knows Claude, GPT, o-series and open models', () => {
    expect(findModel('claude-sonnet-4-5')).toMatchObject({
      provider: 'anthropic',
      contextWindow: 200_000,
      vision: true,
    })
    expect(findModel('claude-opus-4-1')?.prices.inputPerMillion).toBe(15)
    expect(findModel('claude-haiku-4-5')?.prices).toEqual({
      inputPerMillion: 1,
      outputPerMillion: 5,
      cacheWritePerMillion: 1.25,
      cacheReadPerMillion: 0.1,
    })
    expect(findModel('gpt-5')).toMatchObject({ provider: 'openai', contextWindow: 400_000, reasoning: true })
    expect(findModel('gpt-4.1')?.contextWindow).toBe(1_047_576)
    expect(findModel('o4-mini')?.provider).toBe('openai')
    expect(findModel('gpt-oss-120b')?.provider).toBe('openai-chat')
  })

  it('matches the spellings hosts use', () => {
    expect(findModel('anthropic/claude-sonnet-4.5')?.id).toBe('claude-sonnet-4-5')
    expect(findModel('claude-sonnet-4-5-20250929')?.id).toBe('claude-sonnet-4-5')
    expect(findModel('gpt-4o-2024-08-06')?.id).toBe('gpt-4o')
    expect(findModel('qwen3-coder:30b')?.id).toBe('qwen3-coder')
    expect(findModel('meta-llama/llama-3.3-70b-instruct')?.id).toBe('llama-3.3-70b-instruct')
    expect(findModel('deepseek/deepseek-r1:free')?.id).toBe('deepseek-r1')
  })

  it('gives unknown models 128,000 tokens and applies settings overrides', () => {
    const unknown = resolveModelInfo('my-finetune')
    expect(unknown).toMatchObject({ known: false, contextWindow: UNKNOWN_CONTEXT_WINDOW })
    const overridden = resolveModelInfo('claude-sonnet-4-5', {
      contextWindow: 1_000_000,
      prices: { inputPerMillion: 6 },
    })
    expect(overridden.contextWindow).toBe(1_000_000)
    expect(overridden.prices).toMatchObject({ inputPerMillion: 6, outputPerMillion: 15 })
    expect(findModel('claude-sonnet-4-5')?.prices.inputPerMillion).toBe(3)
  })

  it('prices reported usage, cache reads and writes separately', () => {
    const model = resolveModelInfo('claude-sonnet-4-5')
    const usage = {
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      cacheReadTokens: 2_000_000,
      cacheWriteTokens: 400_000,
    }
    const cost = costOf(usage, model)
    expect(cost.inputUsd).toBeCloseTo(3)
    expect(cost.outputUsd).toBeCloseTo(1.5)
    expect(cost.cacheReadUsd).toBeCloseTo(0.6)
    expect(cost.cacheWriteUsd).toBeCloseTo(1.5)
    expect(cost.totalUsd).toBeCloseTo(6.6)
    expect(promptTokensOf(usage)).toBe(3_400_000)
    expect(costOf(usage, resolveModelInfo('my-finetune')).totalUsd).toBe(0)
  })
})

describe('Gemini in the catalog', () => {
  it('knows the current models with a 1M window, cached-input prices and previews of released ones', () => {
    const pro = findModel('gemini-2.5-pro')
    expect(pro).toMatchObject({ provider: 'gemini', contextWindow: 1_048_576, reasoning: true, vision: true })
    expect(pro?.prices).toEqual({
      inputPerMillion: 1.25,
      outputPerMillion: 10,
      cacheWritePerMillion: 1.375,
      cacheReadPerMillion: 0.125,
    })
    expect(findModel('gemini-2.5-flash-preview-09-2025')?.id).toBe('gemini-2.5-flash')
    expect(findModel('google/gemini-3-pro-preview')?.prices.outputPerMillion).toBe(12)
    expect(findModel('gemini-2.0-flash')?.reasoning).toBe(false)
  })
})

describe('model refs', () => {
  it.each([
    ['anthropic/claude-sonnet-4-5', 'anthropic', 'claude-sonnet-4-5'],
    ['openai/gpt-5', 'openai', 'gpt-5'],
    ['openai-chat/Qwen/Qwen3-Coder-30B', 'openai-chat', 'Qwen/Qwen3-Coder-30B'],
    ['openrouter/anthropic/claude-sonnet-4.5', 'openrouter', 'anthropic/claude-sonnet-4.5'],
    ['claude-sonnet-4-5', 'anthropic', 'claude-sonnet-4-5'],
    ['gpt-5-mini', 'openai', 'gpt-5-mini'],
    ['o3', 'openai', 'o3'],
    ['gpt-oss-20b', 'openai-chat', 'gpt-oss-20b'],
    ['scripted:./script.jsonl', 'scripted', './script.jsonl'],
    ['gemini/gemini-2.5-pro', 'gemini', 'gemini-2.5-pro'],
    ['gemini-3-flash-preview', 'gemini', 'gemini-3-flash-preview'],
    // Claude Code's aliases name the newest model of each family.
    ['sonnet', 'anthropic', 'claude-sonnet-4-6'],
    ['opus', 'anthropic', 'claude-opus-4-6'],
    ['haiku', 'anthropic', 'claude-haiku-4-5'],
    ['Sonnet', 'anthropic', 'claude-sonnet-4-6'],
    ['opusplan', 'anthropic', 'claude-sonnet-4-6'],
    ['default', 'anthropic', 'claude-sonnet-4-6'],
  ])('%s → %s / %s', (text, provider, model) => {
    const parsed = parseModelRef(text)
    expect(parsed).toEqual({ ok: true, ref: { provider, model } })
    if (parsed.ok && provider !== 'scripted' && text.includes('/'))
      expect(formatModelRef(parsed.ref)).toBe(text)
  })

  it('resolves an alias behind the anthropic/ prefix and prices aliases as their models', () => {
    expect(parseModelRef('anthropic/opus')).toEqual({
      ok: true,
      ref: { provider: 'anthropic', model: 'claude-opus-4-6' },
    })
    // Other providers' ids are theirs: an alias is only Anthropic's.
    expect(parseModelRef('openai-chat/opus')).toEqual({
      ok: true,
      ref: { provider: 'openai-chat', model: 'opus' },
    })
    expect(resolveModelAlias('Haiku')).toBe('claude-haiku-4-5')
    expect(resolveModelAlias('claude-haiku-4-5')).toBeUndefined()
    for (const alias of modelAliasNames()) {
      const info = resolveModelInfo(alias)
      expect(info.known, alias).toBe(true)
      expect(info.prices.inputPerMillion, alias).toBeGreaterThan(0)
    }
    expect(resolveModelInfo('opus').id).toBe('claude-opus-4-6')
  })

  it('prices the 5.5 models as Claude Code 2.1.332’s bundled catalog does (sonnet, opus there)', () => {
    expect(resolveModelInfo('claude-sonnet-5-5')).toMatchObject({
      provider: 'anthropic',
      known: true,
      contextWindow: 1_000_000,
      maxOutputTokens: 128_000,
      prices: {
        inputPerMillion: 2,
        outputPerMillion: 10,
        cacheWritePerMillion: 2.5,
        cacheReadPerMillion: 0.1,
      },
    })
    expect(resolveModelInfo('claude-opus-5-5')).toMatchObject({
      known: true,
      contextWindow: 1_000_000,
      prices: { inputPerMillion: 4, outputPerMillion: 20, cacheWritePerMillion: 5, cacheReadPerMillion: 0.2 },
    })
    expect(parseModelRef('claude-sonnet-5-5')).toMatchObject({ ok: true, ref: { provider: 'anthropic' } })
  })

  it('says how to fix an unknown or malformed ref', () => {
    expect(parseModelRef('my-model')).toMatchObject({
      ok: false,
      error: expect.stringContaining('openai-chat/my-model'),
    })
    expect(parseModelRef('qwen/qwen3-coder')).toMatchObject({
      ok: false,
      error: expect.stringContaining('openrouter/qwen/qwen3-coder'),
    })
    // A typo of a catalog id names the closest model, not another provider.
    const typo = parseModelRef('claude-sonet-4-5')
    expect(typo).toMatchObject({
      ok: false,
      error: expect.stringContaining("Did you mean 'claude-sonnet-4-5'"),
    })
    expect(parseModelRef('gpt5-mini')).toMatchObject({ error: expect.stringContaining("'gpt-5-mini'") })
    expect(parseModelRef('anthropic/')).toMatchObject({ ok: false })
    expect(parseModelRef('')).toMatchObject({ ok: false })
    expect(parseModelRef('scripted:')).toMatchObject({ ok: false })
  })
})
