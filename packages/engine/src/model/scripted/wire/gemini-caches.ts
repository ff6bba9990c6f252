/**
 * The scripted server's Gemini `cachedContents` resource, with the API's rules: `POST
 * /v1beta/cachedContents` creates a cache (refused below a minimum size), `DELETE
 * /v1beta/cachedContents/<id>` deletes one, and a generateContent request naming a cache must not
 * repeat its system instruction, tools or tool config, must use its model, and is answered with the
 * cache's size as cached tokens. Token counts are characters / 4 of the cached JSON.
 */
import { geminiError } from './gemini.js'

/** A cache the server holds. */
export interface ScriptedCache {
  name: string
  model: string
  tokens: number
  expiresAt: number
  /** The request body it was created from. */
  body: Record<string, unknown>
}

/** An HTTP answer. */
export interface CacheAnswer {
  status: number
  body: object
}

/** The caches of one scripted server. */
export class ScriptedCaches {
  readonly #caches = new Map<string, ScriptedCache>()
  #next = 1

  constructor(
    /** The smallest cache accepted, in tokens (Gemini: 1024 to 4096 by model). */
    private readonly minTokens: number,
  ) {}

  /** The caches alive now. */
  get live(): ScriptedCache[] {
    return [...this.#caches.values()].filter((cache) => cache.expiresAt > Date.now())
  }

  /** `POST cachedContents`. */
  create(body: Record<string, unknown>): CacheAnswer {
    const model = typeof body.model === 'string' ? body.model : ''
    if (model === '') return { status: 400, body: invalid('cachedContent.model is required.') }
    const tokens = Math.ceil(
      JSON.stringify([body.systemInstruction ?? null, body.tools ?? null, body.contents ?? []]).length / 4,
    )
    if (tokens < this.minTokens)
      return {
        status: 400,
        body: invalid(
          `Cached content is too small. total_token_count=${tokens}, min_total_token_count=${this.minTokens}`,
        ),
      }
    const ttl = /^(\d+(?:\.\d+)?)s$/.exec(String(body.ttl ?? '3600s'))
    if (ttl === null) return { status: 400, body: invalid(`Invalid ttl: ${String(body.ttl)}`) }
    const now = Date.now()
    const cache: ScriptedCache = {
      name: `cachedContents/scripted-${this.#next++}`,
      model,
      tokens,
      expiresAt: now + Number(ttl[1]) * 1000,
      body,
    }
    this.#caches.set(cache.name, cache)
    return {
      status: 200,
      body: {
        name: cache.name,
        model,
        ...(typeof body.displayName === 'string' ? { displayName: body.displayName } : {}),
        createTime: new Date(now).toISOString(),
        updateTime: new Date(now).toISOString(),
        expireTime: new Date(cache.expiresAt).toISOString(),
        usageMetadata: { totalTokenCount: tokens },
      },
    }
  }

  /** `DELETE cachedContents/<id>`. */
  delete(name: string): CacheAnswer {
    if (!this.#caches.delete(name)) return notFound()
    return { status: 200, body: {} }
  }

  /**
   * Checks a generateContent body naming a cache: the cache's size in tokens, or the API's error.
   * Bodies without `cachedContent` pass with 0.
   */
  use(body: Record<string, unknown>, model: string): { tokens: number } | CacheAnswer {
    const name = body.cachedContent
    if (name === undefined) return { tokens: 0 }
    const cache = typeof name === 'string' ? this.#caches.get(name) : undefined
    if (cache === undefined || cache.expiresAt <= Date.now()) return notFound()
    if (body.systemInstruction !== undefined || body.tools !== undefined || body.toolConfig !== undefined)
      return {
        status: 400,
        body: invalid(
          'CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config.\n\nProposed fix: move those values to CachedContent from GenerateContent request.',
        ),
      }
    if (cache.model !== `models/${model}` && cache.model !== model)
      return {
        status: 400,
        body: invalid(
          `Model used by GenerateContent request (models/${model}) and CachedContent (${cache.model}) has to be the same!`,
        ),
      }
    return { tokens: cache.tokens }
  }
}

function invalid(message: string): object {
  return geminiError(400, 'INVALID_ARGUMENT', message)
}

function notFound(): CacheAnswer {
  return {
    status: 403,
    body: geminiError(403, 'PERMISSION_DENIED', 'CachedContent not found (or permission denied)'),
  }
}
