/**
 * The model catalog: context window, output limit, prices per million tokens and vision for the
 * models we know. Unknown models get a 128,000-token window and no price; settings override any
 * field (`model.context_window`, prices). Prices are list prices in USD at the time of writing.
 */
import { resolveModelAlias } from './aliases.js'
import type { ProviderName } from './types.js'

/** USD per million tokens. Providers without a cache-write surcharge list the input price. */
export interface ModelPrices {
  inputPerMillion: number
  outputPerMillion: number
  cacheWritePerMillion: number
  cacheReadPerMillion: number
}

/** What the engine knows about one model. */
export interface ModelInfo {
  id: string
  /** The provider a bare id resolves to (`claude-sonnet-4-5` → anthropic). */
  provider: Exclude<ProviderName, 'scripted'>
  contextWindow: number
  maxOutputTokens: number
  prices: ModelPrices
  vision: boolean
  /** Accepts thinking / reasoning-effort parameters. */
  reasoning: boolean
  /** False when the id is not in the catalog and defaults were used. */
  known: boolean
}

/** Settings that override catalog fields for one model. */
export interface ModelOverrides {
  contextWindow?: number
  maxOutputTokens?: number
  prices?: Partial<ModelPrices>
  vision?: boolean
  reasoning?: boolean
}

/** The window assumed for a model the catalog does not know. */
export const UNKNOWN_CONTEXT_WINDOW = 128_000
/** The output limit assumed for a model the catalog does not know. */
export const UNKNOWN_MAX_OUTPUT_TOKENS = 8_192

type Entry = Omit<ModelInfo, 'id' | 'known'>

const FREE: ModelPrices = {
  inputPerMillion: 0,
  outputPerMillion: 0,
  cacheWritePerMillion: 0,
  cacheReadPerMillion: 0,
}

/** Anthropic: cache writes cost 1.25× input (5-minute TTL), reads 0.1× input. */
function claude(input: number, output: number, maxOutputTokens: number): Entry {
  return {
    provider: 'anthropic',
    contextWindow: 200_000,
    maxOutputTokens,
    prices: {
      inputPerMillion: input,
      outputPerMillion: output,
      cacheWritePerMillion: input * 1.25,
      cacheReadPerMillion: input / 10,
    },
    vision: true,
    reasoning: true,
  }
}

/**
 * Prices of a provider that bills cached input at a listed rate and a cache write as input plus that
 * rate (OpenAI, Gemini).
 */
function cachedRatePrices(input: number, output: number, cachedInput: number): ModelPrices {
  return {
    inputPerMillion: input,
    outputPerMillion: output,
    cacheWritePerMillion: input + cachedInput,
    cacheReadPerMillion: cachedInput,
  }
}

/** OpenAI: no cache-write surcharge; cached input at the listed discount. */
function gpt(
  input: number,
  output: number,
  cachedInput: number,
  contextWindow: number,
  maxOutputTokens: number,
  reasoning: boolean,
): Entry {
  return {
    provider: 'openai',
    contextWindow,
    maxOutputTokens,
    prices: cachedRatePrices(input, output, cachedInput),
    vision: true,
    reasoning,
  }
}

/**
 * Google Gemini, priced for prompts up to 200,000 tokens (the Pro models charge more above that;
 * set prices in settings for long-context work). Cached input is billed at the listed
 * context-caching rate. Implicit caching reports no writes; an explicit cache's creation is billed as
 * input and the request that created it then reads it, so a write costs input plus the cached rate
 * (storage per hour is not counted).
 */
function gemini(
  input: number,
  output: number,
  cachedInput: number,
  maxOutputTokens: number,
  reasoning: boolean,
): Entry {
  return {
    provider: 'gemini',
    contextWindow: 1_048_576,
    maxOutputTokens,
    prices: cachedRatePrices(input, output, cachedInput),
    vision: true,
    reasoning,
  }
}

/**
 * Open-weight models, served by the user (vLLM, llama.cpp, Ollama) or a host: no default price,
 * since it depends on where they run. Set prices in settings to track cost.
 */
function open(contextWindow: number, maxOutputTokens: number, reasoning = false, vision = false): Entry {
  return { provider: 'openai-chat', contextWindow, maxOutputTokens, prices: FREE, vision, reasoning }
}

/**
 * A Claude 5.5 model as Claude Code 2.1.332's own model catalog has it: a native 1M-token window,
 * 128,000 output tokens, 5-minute cache writes at 1.25× input, and its own cache-read price.
 */
function claude55(input: number, output: number, cacheRead: number): Entry {
  const entry = claude(input, output, 128_000)
  return { ...entry, contextWindow: 1_000_000, prices: { ...entry.prices, cacheReadPerMillion: cacheRead } }
}

const CATALOG: Record<string, Entry> = {
  // Anthropic. The 5.5 models' figures are from Claude Code 2.1.332's bundled catalog (pricing tiers
  // `tier_2_10_cache_read_0_10`, `tier_4_20_cache_read_0_20`); Haiku 5.5 is left out: its price rises
  // above 100k prompt tokens, which a per-model price cannot express.
  'claude-sonnet-5-5': claude55(2, 10, 0.1),
  'claude-opus-5-5': claude55(4, 20, 0.2),
  // The 4.6 models are priced as their 4.5 predecessors (assumed; override in settings).
  'claude-opus-4-6': claude(5, 25, 64_000),
  'claude-sonnet-4-6': claude(3, 15, 64_000),
  'claude-opus-4-5': claude(5, 25, 64_000),
  'claude-opus-4-1': claude(15, 75, 32_000),
  'claude-opus-4': claude(15, 75, 32_000),
  'claude-sonnet-4-5': claude(3, 15, 64_000),
  'claude-sonnet-4': claude(3, 15, 64_000),
  'claude-haiku-4-5': claude(1, 5, 64_000),
  'claude-3-7-sonnet': claude(3, 15, 64_000),
  'claude-3-5-haiku': { ...claude(0.8, 4, 8_192), reasoning: false },
  // OpenAI GPT. The 5.1 models are priced as their 5.0 predecessors (assumed; override in settings).
  'gpt-5.1': gpt(1.25, 10, 0.125, 400_000, 128_000, true),
  'gpt-5.1-codex': gpt(1.25, 10, 0.125, 400_000, 128_000, true),
  'gpt-5.1-codex-mini': gpt(0.25, 2, 0.025, 400_000, 128_000, true),
  'gpt-5': gpt(1.25, 10, 0.125, 400_000, 128_000, true),
  'gpt-5-codex': gpt(1.25, 10, 0.125, 400_000, 128_000, true),
  'gpt-5-mini': gpt(0.25, 2, 0.025, 400_000, 128_000, true),
  'gpt-5-nano': gpt(0.05, 0.4, 0.005, 400_000, 128_000, true),
  'gpt-4.1': gpt(2, 8, 0.5, 1_047_576, 32_768, false),
  'gpt-4.1-mini': gpt(0.4, 1.6, 0.1, 1_047_576, 32_768, false),
  'gpt-4.1-nano': gpt(0.1, 0.4, 0.025, 1_047_576, 32_768, false),
  'gpt-4o': gpt(2.5, 10, 1.25, 128_000, 16_384, false),
  'gpt-4o-mini': gpt(0.15, 0.6, 0.075, 128_000, 16_384, false),
  // OpenAI o-series
  o3: gpt(2, 8, 0.5, 200_000, 100_000, true),
  'o3-mini': { ...gpt(1.1, 4.4, 0.55, 200_000, 100_000, true), vision: false },
  'o4-mini': gpt(1.1, 4.4, 0.275, 200_000, 100_000, true),
  o1: gpt(15, 60, 7.5, 200_000, 100_000, true),
  // Google Gemini
  'gemini-3-pro-preview': gemini(2, 12, 0.2, 65_536, true),
  'gemini-3-flash-preview': gemini(0.5, 3, 0.05, 65_536, true),
  'gemini-2.5-pro': gemini(1.25, 10, 0.125, 65_536, true),
  'gemini-2.5-flash': gemini(0.3, 2.5, 0.03, 65_536, true),
  'gemini-2.5-flash-lite': gemini(0.1, 0.4, 0.01, 65_536, true),
  'gemini-2.0-flash': gemini(0.1, 0.4, 0.025, 8_192, false),
  // Open-weight models
  'gpt-oss-120b': open(131_072, 32_768, true),
  'gpt-oss-20b': open(131_072, 32_768, true),
  'qwen3-coder': open(262_144, 65_536),
  'qwen3-coder-30b-a3b-instruct': open(262_144, 65_536),
  'qwen3-235b-a22b': open(131_072, 32_768, true),
  'qwen3-32b': open(40_960, 16_384, true),
  'qwen2.5-coder-32b-instruct': open(32_768, 8_192),
  'llama-3.3-70b-instruct': open(131_072, 8_192),
  'llama-3.1-8b-instruct': open(131_072, 8_192),
  'llama-4-maverick': open(1_048_576, 16_384, false, true),
  'llama-4-scout': open(327_680, 16_384, false, true),
  'deepseek-chat': open(131_072, 8_192),
  'deepseek-reasoner': open(131_072, 65_536, true),
  'deepseek-v3.1': open(131_072, 8_192, true),
  'deepseek-r1': open(131_072, 32_768, true),
  'kimi-k2': open(131_072, 16_384),
  'glm-4.5': open(131_072, 98_304, true),
  'devstral-small': open(131_072, 16_384),
  'mistral-small': open(131_072, 16_384, false, true),
}

/**
 * Candidate catalog keys for an id as users and hosts spell it: OpenRouter's `anthropic/claude-sonnet-4.5`,
 * dated snapshots (`claude-sonnet-4-5-20250929`, `gpt-4o-2024-08-06`, `gemini-2.5-flash-preview-09-2025`), Ollama tags (`qwen3-coder:30b`),
 * OpenRouter variants (`:free`), and `-latest`.
 */
function candidates(id: string): string[] {
  const lower = id.toLowerCase().trim()
  const base = lower.slice(lower.lastIndexOf('/') + 1)
  const untagged = base.split(':')[0] ?? base
  const undated = untagged
    .replace(/-\d{8}$/, '')
    .replace(/-\d{4}-\d{2}-\d{2}$/, '')
    .replace(/-latest$/, '')
    // Gemini previews of a released model (gemini-2.5-flash-preview-09-2025) are priced as it.
    .replace(/^(gemini-.+)-preview-\d{2}-\d{4}$/, '$1')
  // OpenRouter writes Claude versions with dots (claude-sonnet-4.5); the catalog uses dashes.
  const dashed = undated.startsWith('claude') ? undated.replace(/(\d)\.(\d)/g, '$1-$2') : undated
  const withoutVendor = dashed.replace(/^(meta-llama-|meta-)/, '')
  return [...new Set([lower, base, untagged, undated, dashed, withoutVendor])]
}

/** The catalog entry for an id or a Claude Code alias (`opus`), or undefined when unknown. */
export function findModel(id: string): ModelInfo | undefined {
  for (const key of candidates(resolveModelAlias(id) ?? id)) {
    const entry = CATALOG[key]
    if (entry) return { id: key, ...entry, prices: { ...entry.prices }, known: true }
  }
  return undefined
}

/** Everything known about a model, with defaults for unknown ids and settings overrides applied. */
export function resolveModelInfo(id: string, overrides: ModelOverrides = {}): ModelInfo {
  const found: ModelInfo = findModel(id) ?? {
    id,
    provider: 'openai-chat',
    contextWindow: UNKNOWN_CONTEXT_WINDOW,
    maxOutputTokens: UNKNOWN_MAX_OUTPUT_TOKENS,
    prices: { ...FREE },
    vision: false,
    reasoning: false,
    known: false,
  }
  return {
    ...found,
    contextWindow: overrides.contextWindow ?? found.contextWindow,
    maxOutputTokens: overrides.maxOutputTokens ?? found.maxOutputTokens,
    prices: { ...found.prices, ...definedOnly(overrides.prices ?? {}) },
    vision: overrides.vision ?? found.vision,
    reasoning: overrides.reasoning ?? found.reasoning,
  }
}

function definedOnly(prices: Partial<ModelPrices>): Partial<ModelPrices> {
  return Object.fromEntries(Object.entries(prices).filter(([, value]) => value !== undefined))
}

/** The ids in the catalog (for `/model` completion and docs). */
export function catalogModelIds(): string[] {
  return Object.keys(CATALOG)
}
