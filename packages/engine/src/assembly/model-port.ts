import type { Settings, Usage } from '@z-engine/protocol'
import { type ModelInfo, type ModelOverrides, resolveModelInfo } from '../model/catalog.js'
import type { ClientFactory, ClientRequester, ProviderSettings } from '../model/client-factory.js'
import { costOf } from '../model/cost.js'
import type { ModelPort } from '../model/model-port.js'
import { parseModelRef } from '../model/model-ref.js'
import type { ModelClient, ProviderName, ReasoningOptions, RoundModel } from '../model/types.js'

/** The model used when settings name none. */
export const DEFAULT_MODEL_REF = 'anthropic/claude-sonnet-4-6'

/** The model reference settings name (`model.name`, qualified by `model.provider`), else the default. */
export function modelRefFromSettings(settings: Settings): string {
  const name = settings.model.name
  if (name === undefined) return DEFAULT_MODEL_REF
  const provider = settings.model.provider
  if (provider === undefined || name.includes('/') || name.startsWith('scripted:')) return name
  return `${provider === 'openai_chat' ? 'openai-chat' : provider}/${name}`
}

/** Provider settings from the `[provider.*]` tables, in the client factory's terms. */
export function providerSettingsOf(settings: Settings, provider: ProviderName): ProviderSettings | undefined {
  const key = provider === 'openai-chat' ? 'openai_chat' : provider
  if (key === 'scripted') return undefined
  const section = settings.provider[key]
  if (!section) return undefined
  return {
    ...(section.base_url !== undefined ? { baseUrl: section.base_url } : {}),
    ...(section.api_key_env !== undefined ? { apiKeyEnv: section.api_key_env } : {}),
    ...(section.cache_control !== undefined ? { cacheControl: section.cache_control } : {}),
    ...('cache_ttl_seconds' in section && section.cache_ttl_seconds !== undefined
      ? { cacheTtlSeconds: section.cache_ttl_seconds }
      : {}),
  }
}

function overridesOf(settings: Settings): ModelOverrides {
  const model = settings.model
  const prices = model.prices
  return {
    ...(model.context_window !== undefined ? { contextWindow: model.context_window } : {}),
    ...(model.max_output_tokens !== undefined ? { maxOutputTokens: model.max_output_tokens } : {}),
    ...(prices
      ? {
          prices: {
            ...(prices.input !== undefined ? { inputPerMillion: prices.input } : {}),
            ...(prices.output !== undefined ? { outputPerMillion: prices.output } : {}),
            ...(prices.cache_read !== undefined ? { cacheReadPerMillion: prices.cache_read } : {}),
            ...(prices.cache_write !== undefined ? { cacheWritePerMillion: prices.cache_write } : {}),
          },
        }
      : {}),
  }
}

function reasoningOf(settings: Settings, info: ModelInfo): ReasoningOptions | undefined {
  const { effort, thinking, thinking_budget_tokens } = settings.model
  if (!info.reasoning || (thinking !== true && effort === undefined)) return undefined
  const mapped = effort === 'max' ? 'high' : (effort ?? 'medium')
  return {
    effort: mapped,
    ...(thinking_budget_tokens !== undefined ? { budgetTokens: thinking_budget_tokens } : {}),
  }
}

/**
 * Resolves model references for a session: clients are created once per reference and reused (the
 * SDK connection pool stays warm), limits and prices come from the catalog with settings overrides.
 */
export class SessionModels implements ModelPort {
  readonly #clients = new Map<string, { client: ModelClient; model: string }>()
  /** `/effort` for this session; overrides `model.effort` from settings. */
  effort: 'low' | 'medium' | 'high' | 'max' | undefined

  constructor(
    private readonly factory: ClientFactory,
    private readonly settings: () => Settings,
    /** The session asking, told to the factory; `injected`: the embedder's factory takes any reference. */
    private readonly requester?: ClientRequester & { injected: boolean },
  ) {}

  /** Catalog facts of a reference (context window, prices, vision). */
  info(modelRef: string): ModelInfo {
    const parsed = parseModelRef(modelRef)
    const id = parsed.ok ? parsed.ref.model : modelRef
    return resolveModelInfo(id, overridesOf(this.settings()))
  }

  resolve(modelRef: string): { ok: true; model: RoundModel } | { ok: false; message: string } {
    const parsed = parseModelRef(modelRef)
    if (!parsed.ok && this.requester?.injected !== true) return { ok: false, message: parsed.error }
    let entry = this.#clients.get(modelRef)
    if (!entry) {
      const requester = this.requester
      const created = this.factory.createClient(
        modelRef,
        parsed.ok ? providerSettingsOf(this.settings(), parsed.ref.provider) : undefined,
        requester ? { sessionId: requester.sessionId, projectRoot: requester.projectRoot } : undefined,
      )
      if (!created.ok) return { ok: false, message: created.error }
      entry = { client: created.client, model: created.model }
      this.#clients.set(modelRef, entry)
    }
    const info = this.info(modelRef)
    const settings = this.settings()
    const reasoning = reasoningOf(
      this.effort !== undefined
        ? { ...settings, model: { ...settings.model, effort: this.effort } }
        : settings,
      info,
    )
    return {
      ok: true,
      model: {
        client: entry.client,
        id: entry.model,
        maxOutputTokens: Math.min(
          info.maxOutputTokens,
          this.settings().model.max_output_tokens ?? info.maxOutputTokens,
        ),
        ...(reasoning ? { reasoning } : {}),
      },
    }
  }

  /** `model.fallback`, qualified by `model.provider` as the main model is (Claude Code's `--fallback-model`). */
  fallback(): string | undefined {
    const settings = this.settings()
    const name = settings.model.fallback
    return name === undefined
      ? undefined
      : modelRefFromSettings({ ...settings, model: { ...settings.model, name } })
  }

  /** Reuses a client already created for `modelRef` (the one `openSession` checked and warmed). */
  adopt(modelRef: string, client: ModelClient, model: string): void {
    this.#clients.set(modelRef, { client, model })
  }

  /**
   * The configured models the route seam may raise a turn or agent to (docs/decisions.md "Route"):
   * the fast model and the main model settings name. Review models are not on it: they serve reviews.
   */
  routeLadder(): readonly string[] {
    const settings = this.settings()
    return [
      ...(settings.model.fast !== undefined ? [settings.model.fast] : []),
      modelRefFromSettings(settings),
    ]
  }

  /** Closes every client this session created (provider-side caches are released). */
  async close(): Promise<void> {
    const clients = [...new Set([...this.#clients.values()].map((entry) => entry.client))]
    this.#clients.clear()
    await Promise.all(clients.map((client) => client.close?.().catch(() => {})))
  }

  /** The context window of a reference, with settings overrides. */
  contextWindow(modelRef: string): number {
    return this.info(modelRef).contextWindow
  }

  /** Cost of one request's usage. */
  costOf(usage: Usage, modelRef: string) {
    return costOf(usage, this.info(modelRef))
  }
}
