import { renderTemplate, toolDescription, WEB_FETCH_EXTRACT_TEMPLATE } from '@z-engine/prompts'
import type { ToolCtx } from '../ctx.js'
import { budgetOutput } from '../output-budget.js'
import { errorMessage, errorResult, textResult } from '../results.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'
import type { ToolResult } from '../tool-result.js'
import { createWebAdmission } from '../web/admission.js'
import { type CachedPage, PageCache } from '../web/page-cache.js'
import { type HostResolver, systemResolver } from '../web/resolver.js'

/** WebFetch's input (Claude Code's shape). */
export interface WebFetchInput {
  url: string
  prompt: string
}

/** How WebFetch reaches the web; every field has a default. */
export interface WebFetchOptions {
  /** `web.allowed_private_hosts`: hosts (exact names or addresses) that may be private or local. */
  allowedPrivateHosts?: readonly string[]
  /** DNS; the default is the system resolver. Tests inject one. */
  resolver?: HostResolver
  /** The whole fetch, redirects included. Default 30 s. */
  timeoutMs?: number
  /** Body bytes read (after decompression). Default 10 MiB. */
  maxBytes?: number
  /** Same-host redirects followed. Default 10. */
  maxRedirects?: number
  /** Characters of page text given to the extraction model. Default 100,000. */
  maxContentChars?: number
  /** Recently fetched pages (15 minutes by default); `false` turns caching off. */
  cache?: PageCache | false
  userAgent?: string
  /** PEM certificates trusted besides the system's, for intranet hosts with a private CA. */
  extraCaCertificates?: readonly string[]
}

/** WebFetch's defaults. */
export const WEB_FETCH_DEFAULTS = {
  timeoutMs: 30_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 10,
  maxContentChars: 100_000,
  userAgent: 'z-engine-webfetch/0.1 (coding agent; +https://github.com/z-engine)',
} as const

const NAME = 'WebFetch'

/**
 * WebFetch: fetches a page with every hop checked (policy URL admission, DNS re-checked, the socket
 * pinned to the checked address), converts HTML to markdown, and answers `prompt` about it with the
 * side model when there is one, else returns the markdown (long pages shortened and spilled).
 */
export function createWebFetchTool(options: WebFetchOptions = {}): Tool<WebFetchInput> {
  const admission = createWebAdmission(options.allowedPrivateHosts ?? [])
  const cache = options.cache === false ? undefined : (options.cache ?? new PageCache())
  const fetchOptions = {
    admission,
    resolver: options.resolver ?? systemResolver,
    timeoutMs: options.timeoutMs ?? WEB_FETCH_DEFAULTS.timeoutMs,
    maxBytes: options.maxBytes ?? WEB_FETCH_DEFAULTS.maxBytes,
    maxRedirects: options.maxRedirects ?? WEB_FETCH_DEFAULTS.maxRedirects,
    userAgent: options.userAgent ?? WEB_FETCH_DEFAULTS.userAgent,
    ...(options.extraCaCertificates === undefined
      ? {}
      : { extraCaCertificates: options.extraCaCertificates }),
  }
  const maxContentChars = options.maxContentChars ?? WEB_FETCH_DEFAULTS.maxContentChars

  /** Downloads and converts a page, or says why not. */
  async function load(url: string, ctx: ToolCtx, signal: AbortSignal): Promise<CachedPage | ToolResult> {
    ctx.progress({ message: `Fetching ${url}` })
    // The HTTP stack and the HTML converter load on the first fetch, not at engine startup.
    const [{ fetchPage }, { pageText }] = await Promise.all([
      import('../web/fetch-page.js'),
      import('../web/page-text.js'),
    ])
    const outcome = await fetchPage(url, fetchOptions, signal)
    switch (outcome.type) {
      case 'refused':
        return errorResult('url_refused', outcome.reason)
      case 'failed':
        return errorResult('fetch_failed', outcome.reason)
      case 'crossHostRedirect':
        return textResult(
          `${outcome.from} redirects (HTTP ${outcome.status}) to another host: ${outcome.location}\nTo read it, call WebFetch again with url "${outcome.location}" and the same prompt.`,
          { details: { url, redirect: outcome.location, status: outcome.status } },
        )
      case 'page':
        break
      default: {
        const never: never = outcome
        return never
      }
    }
    if (outcome.status >= 400) {
      return errorResult(
        'http_error',
        `${outcome.finalUrl} answered HTTP ${outcome.status}${outcome.statusText ? ` ${outcome.statusText}` : ''}. Check the URL, or find the page with WebSearch.`,
      )
    }
    const contentType = outcome.headers['content-type']
    const text = pageText(
      outcome.body,
      typeof contentType === 'string' ? contentType : undefined,
      outcome.finalUrl,
    )
    if (!text.ok) return errorResult('unsupported_content', text.reason)
    const page: CachedPage = {
      finalUrl: outcome.finalUrl,
      text: text.text,
      truncatedBytes: outcome.truncated,
    }
    if (text.title !== undefined) page.title = text.title
    return page
  }

  return {
    name: NAME,
    description: () => toolDescription(NAME),
    inputSchema: {
      type: 'object',
      properties: {
        url: { type: 'string', minLength: 1, description: 'The full URL to fetch (http or https).' },
        prompt: { type: 'string', minLength: 1, description: 'What to extract from the page.' },
      },
      required: ['url', 'prompt'],
      additionalProperties: false,
    },
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    action: (input, ctx) => actionFor(NAME, input, ctx),
    title: (input) => `Fetch ${String(input.url)}`,
    preview: async (input) =>
      typeof input.url === 'string'
        ? { type: 'text', text: `Fetch ${input.url}\nPrompt: ${String(input.prompt ?? '')}` }
        : undefined,
    async call(input, ctx, signal) {
      // Refuse before the cache too: a cached page must not outlive a setting that no longer allows it.
      const admitted = admission.url(input.url)
      if (!admitted.ok) return errorResult('url_refused', admitted.reason)
      const key = admitted.url.href
      let page = cache?.get(key)
      const cached = page !== undefined
      if (page === undefined) {
        let loaded: CachedPage | ToolResult
        try {
          loaded = await load(key, ctx, signal)
        } catch (error) {
          return errorResult('fetch_failed', `Fetching ${key} failed: ${errorMessage(error)}`)
        }
        if ('ok' in loaded) return loaded
        page = loaded
        cache?.set(key, page)
      }
      return answer(page, input.prompt, ctx, signal, {
        maxContentChars,
        cached,
        maxBytes: fetchOptions.maxBytes,
      })
    },
  }
}

/** The WebFetch tool with default options (system DNS, no private hosts allowed). */
export const webFetchTool: Tool<WebFetchInput> = createWebFetchTool()

/** Answers the prompt from the page: through the side model when there is one, else the page itself. */
async function answer(
  page: CachedPage,
  prompt: string,
  ctx: ToolCtx,
  signal: AbortSignal,
  limits: { maxContentChars: number; cached: boolean; maxBytes: number },
): Promise<ToolResult> {
  const notes: string[] = []
  if (page.truncatedBytes) {
    notes.push(
      `The page is larger than ${Math.round(limits.maxBytes / 1024 / 1024)} MiB; only its beginning was read.`,
    )
  }
  const header = `URL: ${page.finalUrl}${page.title === undefined ? '' : `\nTitle: ${page.title}`}`
  const details = {
    url: page.finalUrl,
    title: page.title,
    chars: page.text.length,
    cached: limits.cached,
    truncatedBytes: page.truncatedBytes,
  }
  const sideModel = ctx.ports.sideModel
  if (sideModel !== undefined && page.text.trim() !== '') {
    let content = page.text
    if (content.length > limits.maxContentChars) {
      content = `${content.slice(0, limits.maxContentChars)}\n\n[... page truncated: ${page.text.length - limits.maxContentChars} more characters ...]`
      const path = await spillQuietly(ctx, page.text)
      notes.push(
        `The page was too long to read whole (${page.text.length} characters); the answer covers its first ${limits.maxContentChars}.${path === undefined ? '' : ` The full page is saved at ${path}; read or search it for the rest.`}`,
      )
    }
    ctx.progress({ message: 'Reading the page with the fast model' })
    try {
      const reply = await sideModel.complete(
        renderTemplate(WEB_FETCH_EXTRACT_TEMPLATE, { url: page.finalUrl, content, prompt }),
        signal,
      )
      const body = await budgetOutput(ctx, reply.trim(), 'text', 'web-fetch-answer')
      return textResult([header, body, ...notes].join('\n\n'), { details: { ...details, extracted: true } })
    } catch (error) {
      if (signal.aborted) return errorResult('cancelled', 'The fetch was cancelled.')
      notes.push(`The extraction model failed (${errorMessage(error)}), so this is the page itself.`)
    }
  }
  const body =
    page.text.trim() === ''
      ? '(The page has no text content.)'
      : await budgetOutput(ctx, page.text, 'file', 'web-fetch-page')
  return textResult([header, body, ...notes].join('\n\n'), { details: { ...details, extracted: false } })
}

async function spillQuietly(ctx: ToolCtx, text: string): Promise<string | undefined> {
  try {
    return await ctx.spill(text, 'web-fetch-page')
  } catch {
    return undefined
  }
}
