/**
 * Planning Gemini's explicit context caching, apart from the I/O (context-cache.ts). A cache holds a
 * request's stable prefix — system instruction, tools, tool config and the history before the newest
 * message — under a key of the first three; a later request whose history starts with the cached
 * contents names the cache (`cachedContent`) and sends only the rest. A prefix below the model's
 * minimum is never cached (the API refuses it); a changed prefix (a compaction, a rewind, another
 * agent's tools) gets its own cache; and once the uncached history has grown as large as the cache
 * it is recreated over the longer prefix, so a session creates O(log n) caches, not one per request.
 */
import { createHash } from 'node:crypto'
import type { Content, GenerateContentConfig, GenerateContentParameters, Part } from '@google/genai'
import { estimateTextTokens, MEDIA_TOKENS } from '@z-engine/context'

/** A cache the client created and may still use. */
export interface CacheEntry {
  /** The prefix key: model, system instruction, tools and tool config. */
  key: string
  /** The server's resource name (`cachedContents/…`). */
  name: string
  /** How many of the request's contents the cache holds. */
  contentsCount: number
  /** Hash of those contents, to prove a later request starts with them. */
  contentsHash: string
  /** The cache's size, as the server counted it (estimated when it did not say). */
  tokens: number
  /** Epoch milliseconds after which the server may have dropped it. */
  expiresAt: number
}

/** What to do for one request. */
export type CachePlan =
  | { type: 'none'; reason: 'below minimum' | 'refused before' | 'no contents' }
  | { type: 'use'; entry: CacheEntry }
  | {
      type: 'create'
      key: string
      contentsCount: number
      contentsHash: string
      estimatedTokens: number
      /** The cache of the same key this one supersedes (deleted once the new one exists). */
      replaces?: CacheEntry
    }

/** A cache this close to its expiry is not used: the request could arrive after it is gone. */
const EXPIRY_MARGIN_MS = 30_000

/**
 * The smallest prefix Gemini caches, by model (the API answers "Cached content is too small"
 * below it). Models not listed get the largest minimum, the safe guess.
 */
export function minimumCacheTokens(model: string): number {
  const id = model.replace(/^models\//, '')
  if (/^gemini-2\.5-flash-lite/.test(id)) return 2048
  if (/^gemini-(2\.5|3)-flash/.test(id)) return 1024
  return 4096
}

/** The prefix key of a request: everything a cache fixes besides its contents. */
export function prefixKey(parameters: GenerateContentParameters): string {
  const config = parameters.config ?? {}
  return hash({
    model: parameters.model,
    systemInstruction: config.systemInstruction ?? null,
    tools: config.tools ?? null,
    toolConfig: config.toolConfig ?? null,
  })
}

/**
 * Plans one request whose prefix key is `key` against that key's cache (`entry`, if any).
 * `refused` holds the `key:contentsHash` of creations the server refused; they are not tried again.
 */
export function planCache(
  parameters: GenerateContentParameters,
  key: string,
  entry: CacheEntry | undefined,
  now: number,
  refused: ReadonlySet<string>,
): CachePlan {
  const contents = contentsOf(parameters)
  // The newest message always travels in the request: a generateContent call needs contents.
  if (contents.length === 0) return { type: 'none', reason: 'no contents' }
  const cacheable = contents.length - 1
  const minimum = minimumCacheTokens(parameters.model)
  const usable =
    entry !== undefined &&
    entry.contentsCount <= cacheable &&
    now < entry.expiresAt - EXPIRY_MARGIN_MS &&
    hash(contents.slice(0, entry.contentsCount)) === entry.contentsHash
  // Recreate once the history the cache misses has grown as large as what it holds.
  if (
    usable &&
    estimateContents(contents.slice(entry.contentsCount, cacheable)) < Math.max(entry.tokens, minimum)
  )
    return { type: 'use', entry }
  const contentsHash = hash(contents.slice(0, cacheable))
  const estimatedTokens =
    estimatePrefix(parameters.config ?? {}) + estimateContents(contents.slice(0, cacheable))
  const blocked: 'below minimum' | 'refused before' | undefined =
    estimatedTokens < minimum
      ? 'below minimum'
      : refused.has(`${key}:${contentsHash}`)
        ? 'refused before'
        : undefined
  if (blocked !== undefined) return usable ? { type: 'use', entry } : { type: 'none', reason: blocked }
  return {
    type: 'create',
    key,
    contentsCount: cacheable,
    contentsHash,
    estimatedTokens,
    ...(entry !== undefined ? { replaces: entry } : {}),
  }
}

/**
 * The request as it goes out with a cache: the cache holds the system instruction, tools, tool
 * config and the first contents, so the request must not repeat them (the API refuses a request
 * that sets them beside `cachedContent`).
 */
export function withCache(
  parameters: GenerateContentParameters,
  entry: CacheEntry,
): GenerateContentParameters {
  const {
    systemInstruction: _system,
    tools: _tools,
    toolConfig: _toolConfig,
    ...rest
  } = parameters.config ?? {}
  return {
    model: parameters.model,
    contents: contentsOf(parameters).slice(entry.contentsCount),
    config: { ...rest, cachedContent: entry.name },
  }
}

/** The contents of a request built by request.ts (always a list of Content). */
export function contentsOf(parameters: GenerateContentParameters): Content[] {
  return Array.isArray(parameters.contents) ? (parameters.contents as Content[]) : []
}

/** Hash of a JSON value: the same data always hashes the same (request.ts builds it deterministically). */
export function hash(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex')
}

function estimatePrefix(config: GenerateContentConfig): number {
  const system = config.systemInstruction
  const systemTokens =
    system === undefined
      ? 0
      : typeof system === 'string'
        ? estimateTextTokens(system)
        : 'parts' in system
          ? estimateParts(system.parts ?? [])
          : estimateTextTokens(JSON.stringify(system))
  const toolTokens = config.tools === undefined ? 0 : estimateTextTokens(JSON.stringify(config.tools))
  return systemTokens + toolTokens
}

function estimateContents(contents: readonly Content[]): number {
  return contents.reduce((sum, content) => sum + estimateParts(content.parts ?? []), 0)
}

function estimateParts(parts: readonly Part[]): number {
  let tokens = 0
  for (const part of parts) {
    if (part.inlineData !== undefined || part.fileData !== undefined) tokens += MEDIA_TOKENS
    else if (typeof part.text === 'string') tokens += estimateTextTokens(part.text)
    else if (part.functionCall !== undefined) tokens += estimateTextTokens(JSON.stringify(part.functionCall))
    else if (part.functionResponse !== undefined)
      tokens += estimateTextTokens(JSON.stringify(part.functionResponse))
  }
  return tokens
}
