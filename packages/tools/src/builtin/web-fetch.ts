import { renderTemplate, toolDescription, WEB_FETCH_EXTRACT_TEMPLATE } from '@z-engine/prompts'
import type { ToolCtx } from '../ctx.js'
import { budgetOutput } from '../output-budget.js'
import { errorMessage, errorResult, textResult } from '../results.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'
import type { ToolResult } from '../tool-result.js'
import { createWebAdmission } from '../web/admission.js'
import type { FetchWebTextOptions } from '../web/fetch-web-text.js'
import { type CachedPage, PageCache } from '../web/page-cache.js'
import type { HostResolver } from '../web/resolver.js'
import { WEB_FETCH_DEFAULTS } from '../web/web-fetch-defaults.js'

export { WEB_FETCH_DEFAULTS } from '../web/web-fetch-defaults.js'

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

const NAME = 'WebFetch'

/**
 * WebFetch: fetches a page with every hop checked (policy URL admission, DNS re-checked, the socket
 * pinned to the checked address), converts HTML to markdown, and answers `prompt` about it with the
 * fast model (the side-model port) when one is configured, else returns the markdown (long pages
 * shortened and spilled); the result says which.
 */
export function createWebFetchTool(options: WebFetchOptions = {}): Tool<WebFetchInput> {
  const admission = createWebAdmission(options.allowedPrivateHosts ?? [])
  const cache = options.cache === false ? undefined : (options.cache ?? new PageCache())
  const maxBytes = options.maxBytes ?? WEB_FETCH_DEFAULTS.maxBytes
  const fetchOptions: FetchWebTextOptions = {
    allowedPrivateHosts: options.allowedPrivateHosts ?? [],
    timeoutMs: options.timeoutMs ?? WEB_FETCH_DEFAULTS.timeoutMs,
    maxBytes,
    maxRedirects: options.maxRedirects ?? WEB_FETCH_DEFAULTS.maxRedirects,
    userAgent: options.userAgent ?? WEB_FETCH_DEFAULTS.userAgent,
    ...(options.resolver === undefined ? {} : { resolver: options.resolver }),
    ...(options.extraCaCertificates === undefined
      ? {}
      : { extraCaCertificates: options.extraCaCertificates }),
  }
  const maxContentChars = options.maxContentChars ?? WEB_FETCH_DEFAULTS.maxContentChars

  /** Downloads and converts a page through the shared fetch (`fetchWebText`), or says why not. */
  async function load(url: string, ctx: ToolCtx, signal: AbortSignal): Promise<CachedPage | ToolResult> {
    ctx.progress({ message: `Fetching ${url}` })
    // The HTTP stack and the HTML converter load on the first fetch, not at engine startup.
    const { fetchWebText } = await import('../web/fetch-web-text.js')
    const fetched = await fetchWebText(url, fetchOptions, signal)
    if (fetched.ok) {
      const page: CachedPage = {
        finalUrl: fetched.finalUrl,
        text: fetched.text,
        truncatedBytes: fetched.truncatedBytes,
      }
      if (fetched.title !== undefined) page.title = fetched.title
      return page
    }
    switch (fetched.code) {
      case 'cross_host_redirect':
        return textResult(
          `${fetched.message}\nTo read it, call WebFetch again with url "${fetched.location}" and the same prompt.`,
          { details: { url, redirect: fetched.location, status: fetched.status } },
        )
      case 'http_error':
        return errorResult('http_error', `${fetched.message} Check the URL, or find the page with WebSearch.`)
      case 'url_refused':
      case 'fetch_failed':
      case 'unsupported_content':
        return errorResult(fetched.code, fetched.message)
      default: {
        const never: never = fetched.code
        return never
      }
    }
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
        maxBytes,
      })
    },
  }
}

/** The WebFetch tool with default options (system DNS, no private hosts allowed). */
export const webFetchTool: Tool<WebFetchInput> = createWebFetchTool()

/**
 * Answers the prompt from the page: through the side model (the fast model) when there is one, else
 * the page itself. The result's first line after the header says which, so the model knows whether
 * it still has to read the page for the answer.
 */
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
      const source = `Answered by the fast model${sideModel.model === undefined ? '' : ` (${sideModel.model})`} from the page, for the prompt: ${prompt}`
      return textResult([header, source, body, ...notes].join('\n\n'), {
        details: { ...details, extracted: true, answeredBy: 'fast_model' },
      })
    } catch (error) {
      if (signal.aborted) return errorResult('cancelled', 'The fetch was cancelled.')
      notes.push(`The fast model failed (${errorMessage(error)}), so this is the page itself.`)
    }
  }
  const source =
    sideModel === undefined
      ? 'No fast model is configured (`model.fast` in settings), so this is the page itself: read it to answer the prompt.'
      : 'This is the page itself: read it to answer the prompt.'
  const body =
    page.text.trim() === ''
      ? '(The page has no text content.)'
      : await budgetOutput(ctx, page.text, 'file', 'web-fetch-page')
  return textResult([header, source, body, ...notes].join('\n\n'), {
    details: { ...details, extracted: false, answeredBy: 'page' },
  })
}

async function spillQuietly(ctx: ToolCtx, text: string): Promise<string | undefined> {
  try {
    return await ctx.spill(text, 'web-fetch-page')
  } catch {
    return undefined
  }
}
