import type { IncomingHttpHeaders } from 'node:http'
import { isIP } from 'node:net'
import type { WebAdmission } from './admission.js'
import { pinnedGet } from './pinned-request.js'
import type { HostResolver, ResolvedAddress } from './resolver.js'

/** How a fetch may reach the network. */
export interface FetchPageOptions {
  admission: WebAdmission
  resolver: HostResolver
  /** Whole fetch, every hop included. */
  timeoutMs: number
  /** Body bytes kept (after decompression). */
  maxBytes: number
  /** Same-host redirects followed before giving up. */
  maxRedirects: number
  userAgent: string
  /** PEM certificates trusted besides the system's. */
  extraCaCertificates?: readonly string[]
}

/** What a fetch ended with. `refused` is an admission refusal (the address rules), never a network error. */
export type FetchPageOutcome =
  | {
      type: 'page'
      finalUrl: string
      status: number
      statusText: string
      headers: IncomingHttpHeaders
      body: Buffer
      truncated: boolean
    }
  | { type: 'crossHostRedirect'; from: string; location: string; status: number }
  | { type: 'refused'; url: string; reason: string }
  | { type: 'failed'; url: string; reason: string }

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/**
 * Fetches a URL with every hop checked: the URL passes admission, its host's addresses (resolved
 * here, through the injected resolver) all pass the address rules, and the socket connects to the
 * address that was checked. Same-host redirects are followed (each re-checked, at most
 * `maxRedirects`); a redirect to another host is checked too, then returned rather than followed,
 * so the permission gate sees the new host before anything is fetched from it.
 */
export async function fetchPage(
  url: string,
  options: FetchPageOptions,
  signal: AbortSignal,
): Promise<FetchPageOutcome> {
  const timeout = AbortSignal.timeout(options.timeoutMs)
  const combined = AbortSignal.any([signal, timeout])
  const startUrl = url
  let current = url
  let previous: URL | undefined
  let previousStatus = 0
  for (let hop = 0; ; hop += 1) {
    const admitted = options.admission.url(current)
    if (!admitted.ok) return { type: 'refused', url: current, reason: admitted.reason }
    const target = admitted.url
    let address: ResolvedAddress
    try {
      const checked = await checkedAddress(target, options, combined)
      if (!checked.ok) return { type: 'refused', url: target.href, reason: checked.reason }
      address = checked.address
    } catch (error) {
      return { type: 'failed', url: target.href, reason: failure(error, target, signal, options.timeoutMs) }
    }
    if (previous !== undefined && !sameSite(previous, target)) {
      return { type: 'crossHostRedirect', from: previous.href, location: target.href, status: previousStatus }
    }
    let response: Awaited<ReturnType<typeof pinnedGet>>
    try {
      response = await pinnedGet({
        url: target,
        address,
        headers: {
          'user-agent': options.userAgent,
          accept: 'text/markdown, text/html;q=0.9, text/plain;q=0.8, application/json;q=0.8, */*;q=0.5',
          'accept-encoding': 'gzip, deflate, br',
        },
        maxBytes: options.maxBytes,
        signal: combined,
        ...(options.extraCaCertificates === undefined
          ? {}
          : { extraCaCertificates: options.extraCaCertificates }),
      })
    } catch (error) {
      return { type: 'failed', url: target.href, reason: failure(error, target, signal, options.timeoutMs) }
    }
    const location = response.headers.location
    if (REDIRECT_STATUSES.has(response.status) && typeof location === 'string' && location !== '') {
      if (hop >= options.maxRedirects) {
        return {
          type: 'failed',
          url: startUrl,
          reason: `Stopped after ${options.maxRedirects} redirects (last one to ${location}); the page redirects in a loop or too often.`,
        }
      }
      let next: URL
      try {
        next = new URL(location, target)
      } catch {
        return {
          type: 'failed',
          url: target.href,
          reason: `The server redirected to an invalid URL: ${location}`,
        }
      }
      previous = target
      previousStatus = response.status
      current = next.href
      continue
    }
    return {
      type: 'page',
      finalUrl: target.href,
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      body: response.body,
      truncated: response.truncated,
    }
  }
}

/** Resolves the host (unless it is an address already) and checks every address it has. */
async function checkedAddress(
  target: URL,
  options: FetchPageOptions,
  signal: AbortSignal,
): Promise<{ ok: true; address: ResolvedAddress } | { ok: false; reason: string }> {
  const hostname = bareHost(target)
  const literal = isIP(hostname)
  const addresses: ResolvedAddress[] =
    literal === 0
      ? await options.resolver(hostname, signal)
      : [{ address: hostname, family: literal === 6 ? 6 : 4 }]
  if (addresses.length === 0) return { ok: false, reason: `The host ${hostname} has no addresses.` }
  // Every address must pass, not just the one used: a name that mixes a public and a private
  // address is a rebinding attempt or a misconfiguration either way.
  for (const resolved of addresses) {
    const verdict = options.admission.address(resolved.address, hostname)
    if (!verdict.ok) return verdict
  }
  return { ok: true, address: addresses[0]! }
}

/** The URL's host without IPv6 brackets or a trailing dot. */
export function bareHost(url: URL): string {
  const host = url.hostname.toLowerCase()
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
  return unbracketed.endsWith('.') ? unbracketed.slice(0, -1) : unbracketed
}

// `www.example.com` and `example.com` are one site for redirects (the common canonical redirect).
function sameSite(a: URL, b: URL): boolean {
  const site = (url: URL) => bareHost(url).replace(/^www\./, '')
  return site(a) === site(b)
}

function failure(error: unknown, target: URL, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return 'The fetch was cancelled.'
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : ''
  const name = error instanceof Error ? error.name : ''
  if (name === 'TimeoutError' || name === 'AbortError' || code === 'ABORT_ERR') {
    return `The fetch of ${target.href} timed out after ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}.`
  }
  const host = bareHost(target)
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Could not resolve the host ${host}; check the URL's spelling.`
    case 'ECONNREFUSED':
      return `The host ${host} refused the connection.`
    case 'ECONNRESET':
      return `The host ${host} closed the connection.`
    default: {
      const message = error instanceof Error ? error.message : String(error)
      if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) {
        return `The TLS certificate of ${host} could not be verified (${message}); WebFetch never skips certificate checks.`
      }
      return `Fetching ${target.href} failed: ${message}`
    }
  }
}
