/**
 * Gateway-owned web fetch, with the engine's WebFetch address checks (`fetchWebText`: URL admission,
 * every resolved address checked and the socket pinned to it, redirects re-checked). The operator
 * turns it on (`--web-fetch`); the model sees one function, `web_fetch`, taking one `url`.
 *
 * Responses has no web fetch tool type, so the gateway defines one in the shape of its web search:
 * a request declares `{type: "web_fetch"}` (optional `allowed_domains`, `blocked_domains`,
 * `max_content_tokens`), and the client sees a `web_fetch_call` item (`wf_…`) whose `action` is
 * `{type: "fetch", url, final_url?, title?}`, streamed as `response.web_fetch_call.in_progress` →
 * `fetching` → `completed|failed`. The Messages API's `web_fetch_20250910` runs on the same fetch.
 */
import { type FetchWebTextOptions, fetchWebText } from '@z-engine/engine/web'
import { type GatewayError, invalidRequest } from '../wire/errors.js'
import { isObject, type JsonObject } from '../wire/json.js'
import type { GatewayToolCall, GatewayToolResult, GatewayToolset } from './gateway-tools.js'

/** The operator's web fetch settings (`--web-fetch`); absent means the tool is refused. */
export interface WebFetchSettings extends FetchWebTextOptions {
  /** Characters of page text fed back at most (a declaration's `max_content_tokens` lowers it). Default 100 000. */
  maxContentChars?: number
}

/** The function name the model calls. */
export const WEB_FETCH_FUNCTION = 'web_fetch'

/** Anthropic's ceiling on a fetched URL's length. */
export const MAX_URL_CHARS = 250

const REDIRECT_HOPS = 5
const DEFAULT_MAX_CONTENT_CHARS = 100_000

/** Why a fetch gave the model no page, in the Messages API's `web_fetch_tool_result_error` codes. */
export type FetchErrorCode =
  | 'invalid_tool_input'
  | 'url_too_long'
  | 'url_not_allowed'
  | 'url_not_accessible'
  | 'unsupported_content_type'
  | 'max_uses_exceeded'
  | 'unavailable'

/** A fetch as the model and the client see it. */
export type FetchOutcome =
  | { ok: true; url: string; finalUrl: string; title?: string; text: string; output: string }
  | { ok: false; code: FetchErrorCode; message: string; output: string }

/** Which hosts a declaration lets the model fetch (or search). */
export interface DomainPolicy {
  allowedDomains?: string[]
  blockedDomains?: string[]
}

function bareDomain(domain: string): string {
  return domain
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/[/:].*$/, '')
    .replace(/\.$/, '')
}

/** True when `host` is `domain` or one of its subdomains. */
function under(host: string, domain: string): boolean {
  const bare = bareDomain(domain)
  return bare !== '' && (host === bare || host.endsWith(`.${bare}`))
}

/** Whether a URL's host passes the declaration's domain lists. */
export function domainAllowed(url: string, policy: DomainPolicy): boolean {
  let host: string
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '')
  } catch {
    return false
  }
  if (policy.blockedDomains?.some((domain) => under(host, domain))) return false
  if (policy.allowedDomains && !policy.allowedDomains.some((domain) => under(host, domain))) return false
  return true
}

/** Reads a declaration's domain lists; a 400 when they are malformed or both given. */
export function readDomainPolicy(tool: JsonObject, at: string): DomainPolicy | GatewayError {
  const policy: DomainPolicy = {}
  for (const key of ['allowed_domains', 'blocked_domains'] as const) {
    const value = tool[key]
    if (value === undefined || value === null) continue
    if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string' || entry.trim() === ''))
      return invalidRequest(`${at}.${key} must be a list of domain names.`, `${at}.${key}`)
    policy[key === 'allowed_domains' ? 'allowedDomains' : 'blockedDomains'] = value as string[]
  }
  if (policy.allowedDomains && policy.blockedDomains)
    return invalidRequest(
      `${at} sets both allowed_domains and blocked_domains; use one of them.`,
      `${at}.blocked_domains`,
    )
  return policy
}

/** The URL a fetch call names, or why it names none. */
export function parseFetchUrl(argumentsText: string): string | { error: string } {
  let args: unknown
  try {
    args = argumentsText.trim() === '' ? {} : JSON.parse(argumentsText)
  } catch {
    return { error: 'the arguments are not valid JSON' }
  }
  if (!isObject(args) || typeof args.url !== 'string' || args.url.trim() === '')
    return { error: 'give the page to fetch as a non-empty "url"' }
  return args.url.trim()
}

function failure(code: FetchErrorCode, message: string): FetchOutcome {
  return { ok: false, code, message, output: `Error (${code}): ${message}` }
}

/**
 * Fetches a page for the model: domain lists, then the engine's checked fetch. A redirect to another
 * host is followed (at most five) only when that host passes the domain lists and the address checks too.
 */
export async function fetchForModel(
  url: string,
  settings: WebFetchSettings,
  policy: DomainPolicy & { maxContentChars?: number },
  signal: AbortSignal,
): Promise<FetchOutcome> {
  if (url.length > MAX_URL_CHARS)
    return failure('url_too_long', `The URL is longer than ${MAX_URL_CHARS} characters.`)
  let current = url
  for (let hop = 0; hop <= REDIRECT_HOPS; hop++) {
    if (!domainAllowed(current, policy))
      return failure('url_not_allowed', `${current} is outside the domains this tool may fetch.`)
    const fetched = await fetchWebText(current, settings, signal)
    if (fetched.ok) {
      const limit = Math.min(
        policy.maxContentChars ?? Number.POSITIVE_INFINITY,
        settings.maxContentChars ?? DEFAULT_MAX_CONTENT_CHARS,
      )
      const text =
        fetched.text.length > limit
          ? `${fetched.text.slice(0, limit)}\n\n[... truncated: ${fetched.text.length - limit} more characters ...]`
          : fetched.text
      const header = `URL: ${fetched.finalUrl}${fetched.title === undefined ? '' : `\nTitle: ${fetched.title}`}`
      return {
        ok: true,
        url,
        finalUrl: fetched.finalUrl,
        ...(fetched.title === undefined ? {} : { title: fetched.title }),
        text,
        output: `${header}\n\n${text.trim() === '' ? '(The page has no text content.)' : text}`,
      }
    }
    switch (fetched.code) {
      case 'cross_host_redirect':
        if (fetched.location === undefined) return failure('url_not_accessible', fetched.message)
        current = fetched.location
        continue
      case 'url_refused':
        return failure('url_not_allowed', fetched.message)
      case 'fetch_failed':
      case 'http_error':
        return failure('url_not_accessible', fetched.message)
      case 'unsupported_content':
        return failure('unsupported_content_type', fetched.message)
      default: {
        const never: never = fetched.code
        return never
      }
    }
  }
  return failure('url_not_accessible', `${url} redirected more than ${REDIRECT_HOPS} times.`)
}

/** The function the model sees for web fetch. */
export function webFetchFunction(): JsonObject {
  return {
    type: 'function',
    name: WEB_FETCH_FUNCTION,
    description:
      'Fetches one web page (http or https) and returns its text (HTML as markdown). Use it to read a page whose URL you already have.',
    parameters: {
      type: 'object',
      properties: { url: { type: 'string', description: 'The full URL of the page.' } },
      required: ['url'],
      additionalProperties: false,
    },
    strict: false,
  }
}

/** Checks a Responses request's `web_fetch` declarations before anything runs. */
export function checkWebFetchDeclarations(
  tools: JsonObject[],
  settings: WebFetchSettings | undefined,
): GatewayError | undefined {
  let declared = 0
  const native = tools.some((tool) => tool.type === 'web_fetch')
  for (const [index, tool] of tools.entries()) {
    const at = `tools[${index}]`
    if (native && tool.type === 'function' && tool.name === WEB_FETCH_FUNCTION)
      return invalidRequest(
        `${at} declares a function named '${WEB_FETCH_FUNCTION}' beside the web_fetch tool; rename the function.`,
        `${at}.name`,
      )
    if (tool.type !== 'web_fetch') continue
    if (++declared > 1) return invalidRequest('Declare the web_fetch tool once.', at)
    if (!settings)
      return invalidRequest(
        `${at} has type 'web_fetch', but this gateway does not fetch pages; its operator enables it with --web-fetch.`,
        `${at}.type`,
        'unsupported_tool',
      )
    const policy = readDomainPolicy(tool, at)
    if ('status' in policy) return policy
    const tokens = tool.max_content_tokens
    if (tokens !== undefined && tokens !== null && !(Number.isInteger(tokens) && Number(tokens) > 0))
      return invalidRequest(
        `${at}.max_content_tokens must be a positive integer.`,
        `${at}.max_content_tokens`,
      )
  }
  return undefined
}

/** The web fetch toolset of a Responses request, or undefined when it declares none. */
export function openWebFetchToolset(
  tools: JsonObject[],
  settings: WebFetchSettings,
): GatewayToolset | undefined {
  const declaration = tools.find((tool) => tool.type === 'web_fetch')
  if (!declaration) return undefined
  const policy = readDomainPolicy(declaration, 'web_fetch') as DomainPolicy
  const tokens = Number(declaration.max_content_tokens)
  const limits = {
    ...policy,
    ...(Number.isInteger(tokens) && tokens > 0 ? { maxContentChars: tokens * 4 } : {}),
  }
  const item = (call: GatewayToolCall, id: string, rest: JsonObject, status: string): JsonObject => {
    const url = parseFetchUrl(call.arguments)
    return {
      id,
      type: 'web_fetch_call',
      action: { type: 'fetch', url: typeof url === 'string' ? url : '', ...rest },
      status,
    }
  }
  return {
    upstreamTools: [webFetchFunction()],
    listItems: [],
    owns: (name) => name === WEB_FETCH_FUNCTION,
    itemType: () => 'web_fetch_call',
    eventPrefix: () => 'response.web_fetch_call',
    runningEvents: () => ['fetching'],
    startItem: (call, id) => item(call, id, {}, 'in_progress'),
    async execute(call, id, signal): Promise<GatewayToolResult> {
      const url = parseFetchUrl(call.arguments)
      if (typeof url !== 'string')
        return { output: `Error: ${url.error}.`, publicItem: item(call, id, {}, 'failed'), failed: true }
      const outcome = await fetchForModel(url, settings, limits, signal)
      if (!outcome.ok)
        return {
          output: outcome.output,
          publicItem: item(call, id, { error: { code: outcome.code, message: outcome.message } }, 'failed'),
          failed: true,
        }
      return {
        output: outcome.output,
        publicItem: item(
          call,
          id,
          { final_url: outcome.finalUrl, ...(outcome.title === undefined ? {} : { title: outcome.title }) },
          'completed',
        ),
        failed: false,
      }
    },
    close: async () => {},
  }
}
