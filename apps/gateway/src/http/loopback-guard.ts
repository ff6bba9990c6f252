/**
 * A keyless gateway listens on loopback only, but a web page in the user's browser can still reach
 * loopback: through DNS rebinding (a name the attacker controls resolving to 127.0.0.1, so the
 * request carries `Host: evil.example`) or a cross-site POST (`Origin: https://evil.example`). In
 * keyless mode the gateway serves only requests whose Host is a loopback name and whose Origin, when
 * a browser sends one, is a loopback origin too.
 */
import type { IncomingHttpHeaders } from 'node:http'

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]'])

function isLoopbackName(hostname: string, bound: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '')
  return (
    LOOPBACK_NAMES.has(name) ||
    name.endsWith('.localhost') ||
    /^127(?:\.\d{1,3}){3}$/.test(name) ||
    name === bound.toLowerCase() ||
    `[${bound.toLowerCase()}]` === name
  )
}

/** The host name of a `Host` header value (`[::1]:8080` → `[::1]`, `localhost:80` → `localhost`). */
function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1)
  const colon = host.lastIndexOf(':')
  return colon < 0 ? host : host.slice(0, colon)
}

/**
 * Why a keyless gateway refuses this request (a message for the 403), or undefined. `bound` is the
 * address the server listens on.
 */
export function loopbackRefusal(headers: IncomingHttpHeaders, bound: string): string | undefined {
  const host = headers.host
  if (typeof host !== 'string' || host === '' || !isLoopbackName(hostnameOf(host), bound))
    return `This gateway runs without authentication and answers only requests addressed to a loopback name (Host ${JSON.stringify(host ?? '')} is not one; a web page may be trying DNS rebinding). Use http://127.0.0.1 or http://localhost, or configure --api-key.`
  const origin = headers.origin
  if (origin === undefined) return undefined
  let originHost: string
  try {
    originHost = new URL(origin).hostname
  } catch {
    originHost = ''
  }
  if (originHost === '' || !isLoopbackName(originHost, bound))
    return `This gateway runs without authentication and refuses browser requests from other sites (Origin ${JSON.stringify(origin)}). Configure --api-key to serve browsers.`
  return undefined
}
