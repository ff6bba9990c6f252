/**
 * Creating model clients from a model reference and provider settings. Keys and base URLs come from
 * settings first, then the standard environment variables, which the caller passes in (nothing here
 * reads `process.env`). The SDKs are imported on the first request, not here.
 */
import { readFileSync } from 'node:fs'
import { createAnthropicClient } from './anthropic/client.js'
import { createGeminiClient, GEMINI_CACHE_TTL_SECONDS } from './gemini/client.js'
import { parseModelRef } from './model-ref.js'
import { createChatClient } from './openai-chat/client.js'
import { createResponsesClient } from './openai-responses/client.js'
import type { RetryOptions } from './retry.js'
import { parseScript } from './scripted/script.js'
import { ScriptedClient } from './scripted/scripted-client.js'
import type { ModelClient, ProviderName } from './types.js'

/** Settings for one provider (the `[provider.<name>]` table of settings: base_url, api_key_env, cache_control). */
export interface ProviderSettings {
  /** Overrides the provider's default URL and its `*_BASE_URL` variable. */
  baseUrl?: string
  /** A literal key; prefer `apiKeyEnv` so keys stay out of settings files. */
  apiKey?: string
  /** The environment variable holding the key, instead of the provider's standard one. */
  apiKeyEnv?: string
  /**
   * Prompt caching: cache markers, on by default for Anthropic (native) and OpenRouter (passthrough),
   * off for others; for Gemini, explicit context caching of the stable prefix (off by default).
   */
  cacheControl?: boolean
  /** Gemini's explicit caches live this long, in seconds (default {@link GEMINI_CACHE_TTL_SECONDS}). */
  cacheTtlSeconds?: number
  /** Extra HTTP headers on every request. */
  headers?: Record<string, string>
  timeoutMs?: number
  retry?: RetryOptions
}

/** A created client, with the provider and the model id to put in requests. */
export type CreateClientResult =
  | { ok: true; client: ModelClient; provider: ProviderName; model: string }
  | { ok: false; error: string }

/** Creates model clients; injected into the Engine so tests can supply scripted ones. */
export interface ClientFactory {
  /**
   * A client for a model reference. `provider` holds the settings of the reference's provider;
   * `session` says which session (and project) asks. An embedder's factory receives every reference
   * as given — ones the catalog does not know included.
   */
  createClient(ref: string, provider?: ProviderSettings, session?: ClientRequester): CreateClientResult
}

/** The session a client is created for. */
export interface ClientRequester {
  sessionId: string
  projectRoot: string
}

/** What the default factory reads. */
export interface DefaultClientFactoryOptions {
  /** The environment (the engine passes `process.env`). */
  env: Readonly<Record<string, string | undefined>>
  /** Settings per provider, used when `createClient` gets none. */
  providers?: Partial<Record<ProviderName, ProviderSettings>>
  /** Retry policy for every client (provider settings may override). */
  retry?: RetryOptions
  /** Reads a `scripted:<file>` script (default: node:fs, UTF-8). */
  readFile?: (path: string) => string
}

const OPENROUTER_URL = 'https://openrouter.ai/api/v1'

/** The standard variables per provider; `fallbackKeys` are tried in order after `key`. */
const ENV: Record<
  Exclude<ProviderName, 'scripted'>,
  { key: string; fallbackKeys?: string[]; baseUrl?: string }
> = {
  anthropic: { key: 'ANTHROPIC_API_KEY', baseUrl: 'ANTHROPIC_BASE_URL' },
  openai: { key: 'OPENAI_API_KEY', baseUrl: 'OPENAI_BASE_URL' },
  'openai-chat': { key: 'OPENAI_API_KEY', baseUrl: 'OPENAI_BASE_URL' },
  openrouter: { key: 'OPENROUTER_API_KEY' },
  // Google's SDKs read GEMINI_API_KEY and GOOGLE_API_KEY; GOOGLE_GEMINI_BASE_URL is the SDK's own name.
  gemini: { key: 'GEMINI_API_KEY', fallbackKeys: ['GOOGLE_API_KEY'], baseUrl: 'GOOGLE_GEMINI_BASE_URL' },
}

/** The factory the CLI and embedders use by default. */
export function createDefaultClientFactory(options: DefaultClientFactoryOptions): ClientFactory {
  const nonEmpty = (value: string | undefined): string | undefined =>
    value !== undefined && value.trim() !== '' ? value.trim() : undefined
  return {
    createClient(text, given) {
      const parsed = parseModelRef(text)
      if (!parsed.ok) return { ok: false, error: parsed.error }
      const { provider, model } = parsed.ref
      const settings: ProviderSettings = given ?? options.providers?.[provider] ?? {}
      const retry = { ...options.retry, ...settings.retry }
      if (provider === 'scripted') return scripted(model, options.readFile)
      const names = ENV[provider]
      const keyVariable = settings.apiKeyEnv ?? names.key
      // The fallbacks apply while the key variable is the standard one (settings default to it).
      const keyVariables =
        keyVariable === names.key ? [keyVariable, ...(names.fallbackKeys ?? [])] : [keyVariable]
      const apiKey =
        nonEmpty(settings.apiKey) ??
        keyVariables.map((variable) => nonEmpty(options.env[variable])).find((key) => key !== undefined)
      const baseUrl =
        nonEmpty(settings.baseUrl) ??
        (names.baseUrl ? nonEmpty(options.env[names.baseUrl]) : undefined) ??
        (provider === 'openrouter' ? OPENROUTER_URL : undefined)
      const official = baseUrl === undefined || /(^|\.)openai\.com/.test(hostOf(baseUrl))
      // Local compatible servers (vLLM, llama.cpp, Ollama) usually need no key; the SDK still wants one.
      const keyOptional = provider === 'openai-chat' && !official
      if (apiKey === undefined && !keyOptional) {
        const table = provider === 'openai-chat' ? 'openai_chat' : provider
        const error = settings.apiKeyEnv
          ? `No API key for ${provider}/${model}: set ${settings.apiKeyEnv} in the environment (named by api_key_env under [provider.${table}] in settings).`
          : `No API key for ${provider}/${model}: set ${keyVariables.join(' or ')} in the environment (or name another variable with api_key_env under [provider.${table}] in settings).`
        return { ok: false, error }
      }
      const common = {
        apiKey: apiKey ?? 'not-needed',
        retry,
        ...(baseUrl !== undefined ? { baseUrl } : {}),
        ...(settings.headers !== undefined ? { headers: settings.headers } : {}),
        ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
      }
      let client: ModelClient
      switch (provider) {
        case 'anthropic':
          client = createAnthropicClient({ ...common, cacheControl: settings.cacheControl ?? true })
          break
        case 'openai':
          client = createResponsesClient(common)
          break
        case 'openai-chat':
          client = createChatClient({
            ...common,
            provider: 'openai-chat',
            dialect: {
              cacheControl: settings.cacheControl ?? false,
              maxTokensField: official ? 'max_completion_tokens' : 'max_tokens',
              reasoningField: 'reasoning_effort',
            },
          })
          break
        case 'openrouter':
          client = createChatClient({
            ...common,
            provider: 'openrouter',
            dialect: {
              cacheControl: settings.cacheControl ?? true,
              maxTokensField: 'max_tokens',
              reasoningField: 'reasoning',
            },
          })
          break
        case 'gemini':
          client = createGeminiClient({
            ...common,
            ...(settings.cacheControl === true
              ? { cache: { ttlSeconds: settings.cacheTtlSeconds ?? GEMINI_CACHE_TTL_SECONDS } }
              : {}),
          })
          break
        default: {
          const unreachable: never = provider
          return unreachable
        }
      }
      return { ok: true, client, provider, model }
    },
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname
  } catch {
    return url
  }
}

function scripted(file: string, readFile: ((path: string) => string) | undefined): CreateClientResult {
  let text: string
  try {
    text = readFile ? readFile(file) : readFileSync(file, 'utf8')
  } catch (error) {
    return { ok: false, error: `Cannot read the script ${file}: ${(error as Error).message}` }
  }
  const parsed = parseScript(text)
  if (!parsed.ok) return { ok: false, error: `${file}: ${parsed.error}` }
  return { ok: true, client: new ScriptedClient(parsed.steps), provider: 'scripted', model: 'scripted' }
}
