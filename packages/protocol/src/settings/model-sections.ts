import { bool, enums, int, obj, str, withDefault } from '../schema/builder.js'
import { dollarsPerMillion } from './fields.js'

/** Schema of the `[model]` table. */
export const ModelSection = obj(
  {},
  {
    name: str({ minLength: 1, description: 'Main model id; the catalog default when absent.' }),
    fast: str({ minLength: 1, description: 'Fast model (compaction summaries, WebFetch extraction).' }),
    review: str({ minLength: 1, description: 'Model for the review role.' }),
    fallback: str({
      minLength: 1,
      description:
        "Model a turn switches to when the main model is still overloaded (HTTP 529) after its retries (Claude Code's --fallback-model).",
    }),
    provider: enums(['anthropic', 'openai', 'openrouter', 'openai_chat', 'gemini'], {
      description: 'Which provider serves the model; inferred from the catalog when absent.',
    }),
    context_window: int({ minimum: 1, description: 'Overrides the catalog; unknown models get 128000.' }),
    max_output_tokens: int({ minimum: 1, description: 'Cap on output tokens per request.' }),
    effort: enums(['low', 'medium', 'high', 'max'], {
      description: 'Reasoning effort on models that offer it.',
    }),
    thinking: bool({ description: 'Extended thinking / reasoning on models that offer it.' }),
    thinking_budget_tokens: int({ minimum: 1024, description: 'Thinking budget when thinking is on.' }),
    prices: obj(
      {},
      {
        input: dollarsPerMillion(),
        output: dollarsPerMillion(),
        cache_read: dollarsPerMillion(),
        cache_write: dollarsPerMillion(),
      },
      { description: 'Overrides the catalog prices (USD per million tokens).' },
    ),
  },
)

const providerSection = (apiKeyEnv: string, cacheControl: boolean) =>
  withDefault(
    obj(
      {},
      {
        base_url: str({ minLength: 1, description: 'Any compatible server (vLLM, llama.cpp, Ollama, …).' }),
        api_key_env: withDefault(
          str({ minLength: 1, description: 'Environment variable holding the key.' }),
          apiKeyEnv,
        ),
        cache_control: withDefault(bool({ description: 'Send prompt-cache breakpoints.' }), cacheControl),
      },
    ),
    {},
  )

/**
 * Gemini caches repeated prefixes implicitly; `cache_control` adds explicit context caching of the
 * stable prefix (off by default: cache storage is billed per hour).
 */
const geminiSection = () =>
  withDefault(
    obj(
      {},
      {
        base_url: str({
          minLength: 1,
          description: 'A Gemini-API-compatible server or proxy (the SDK appends /v1beta/models/…).',
        }),
        api_key_env: withDefault(
          str({
            minLength: 1,
            description:
              'Environment variable holding the key (GOOGLE_API_KEY is tried after GEMINI_API_KEY).',
          }),
          'GEMINI_API_KEY',
        ),
        cache_control: withDefault(
          bool({
            description:
              'Explicit context caching: the system prompt, tools and earlier history are cached (caches.create) and named by later requests.',
          }),
          false,
        ),
        cache_ttl_seconds: withDefault(
          int({
            minimum: 60,
            maximum: 86_400,
            description: 'How long each explicit cache lives, in seconds.',
          }),
          300,
        ),
      },
    ),
    {},
  )

/** Schema of the `[provider]` table. */
export const ProviderSection = obj(
  {},
  {
    anthropic: providerSection('ANTHROPIC_API_KEY', true),
    openai: providerSection('OPENAI_API_KEY', false),
    openrouter: providerSection('OPENROUTER_API_KEY', true),
    openai_chat: providerSection('OPENAI_API_KEY', false),
    gemini: geminiSection(),
  },
)
