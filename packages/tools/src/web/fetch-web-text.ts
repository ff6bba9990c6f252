/**
 * One page as text, fetched with WebFetch's address checks (policy URL admission, every resolved
 * address checked, the socket pinned to it, redirects re-checked) and converted to text (HTML to
 * markdown, text types as they are, binary refused). The one fetch both WebFetch and the gateway's
 * web_fetch tool use; failures are values with a code, never throws.
 */
import { createWebAdmission } from './admission.js'
import { fetchPage } from './fetch-page.js'
import { type HostResolver, systemResolver } from './resolver.js'
import { WEB_FETCH_DEFAULTS } from './web-fetch-defaults.js'

/** How {@link fetchWebText} reaches the web; every field has WebFetch's default. */
export interface FetchWebTextOptions {
  /** Hosts (exact names or addresses) that may be private or local; nothing else may. */
  allowedPrivateHosts?: readonly string[]
  resolver?: HostResolver
  timeoutMs?: number
  maxBytes?: number
  maxRedirects?: number
  userAgent?: string
  /** PEM certificates trusted besides the system's, for intranet hosts with a private CA. */
  extraCaCertificates?: readonly string[]
}

/** Why a fetch produced no text. */
export type FetchWebTextFailure =
  | 'url_refused'
  | 'fetch_failed'
  | 'http_error'
  | 'unsupported_content'
  | 'cross_host_redirect'

/**
 * A page's text, or why there is none (`location` and `status` for a redirect to another host, not
 * followed; `status` for an HTTP error).
 */
export type FetchWebTextResult =
  | { ok: true; url: string; finalUrl: string; title?: string; text: string; truncatedBytes: boolean }
  | { ok: false; code: FetchWebTextFailure; message: string; location?: string; status?: number }

/** Fetches `url` and returns its text. A redirect to another host is returned, checked but not followed. */
export async function fetchWebText(
  url: string,
  options: FetchWebTextOptions,
  signal: AbortSignal,
): Promise<FetchWebTextResult> {
  const admission = createWebAdmission(options.allowedPrivateHosts ?? [])
  const admitted = admission.url(url)
  if (!admitted.ok) return { ok: false, code: 'url_refused', message: admitted.reason }
  let outcome: Awaited<ReturnType<typeof fetchPage>>
  try {
    outcome = await fetchPage(
      admitted.url.href,
      {
        admission,
        resolver: options.resolver ?? systemResolver,
        timeoutMs: options.timeoutMs ?? WEB_FETCH_DEFAULTS.timeoutMs,
        maxBytes: options.maxBytes ?? WEB_FETCH_DEFAULTS.maxBytes,
        maxRedirects: options.maxRedirects ?? WEB_FETCH_DEFAULTS.maxRedirects,
        userAgent: options.userAgent ?? WEB_FETCH_DEFAULTS.userAgent,
        ...(options.extraCaCertificates === undefined
          ? {}
          : { extraCaCertificates: options.extraCaCertificates }),
      },
      signal,
    )
  } catch (error) {
    return { ok: false, code: 'fetch_failed', message: `Fetching ${url} failed: ${(error as Error).message}` }
  }
  switch (outcome.type) {
    case 'refused':
      return { ok: false, code: 'url_refused', message: outcome.reason }
    case 'failed':
      return { ok: false, code: 'fetch_failed', message: outcome.reason }
    case 'crossHostRedirect':
      return {
        ok: false,
        code: 'cross_host_redirect',
        message: `${outcome.from} redirects (HTTP ${outcome.status}) to another host: ${outcome.location}`,
        location: outcome.location,
        status: outcome.status,
      }
    case 'page':
      break
    default: {
      const never: never = outcome
      return never
    }
  }
  if (outcome.status >= 400)
    return {
      ok: false,
      code: 'http_error',
      message: `${outcome.finalUrl} answered HTTP ${outcome.status}${outcome.statusText ? ` ${outcome.statusText}` : ''}.`,
      status: outcome.status,
    }
  const contentType = outcome.headers['content-type']
  // The HTML converter (node-html-markdown and its parser) loads with the first page, as in WebFetch.
  const { pageText } = await import('./page-text.js')
  const text = pageText(
    outcome.body,
    typeof contentType === 'string' ? contentType : undefined,
    outcome.finalUrl,
  )
  if (!text.ok) return { ok: false, code: 'unsupported_content', message: text.reason }
  return {
    ok: true,
    url: admitted.url.href,
    finalUrl: outcome.finalUrl,
    ...(text.title === undefined ? {} : { title: text.title }),
    text: text.text,
    truncatedBytes: outcome.truncated,
  }
}
