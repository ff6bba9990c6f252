import { classifyIPv4, classifyIPv6, parseIPv4, parseIPv6 } from './ip.js'

/** Options of URL admission. */
export interface AdmitOptions {
  /** Host names or addresses the user explicitly allowed although they are private. */
  allowedPrivateHosts?: readonly string[]
}

/** An admitted URL (with its lower-cased host) or why it is refused. */
export type Admission = { ok: true; url: string; host: string } | { ok: false; reason: string }

const SPECIAL_NAMES = [
  'localhost',
  'localhost.localdomain',
  'metadata',
  'metadata.google.internal',
  'instance-data',
]
const SPECIAL_SUFFIXES = [
  '.localhost',
  '.local',
  '.internal',
  '.home.arpa',
  '.invalid',
  '.lan',
  '.intranet',
  '.corp',
]

/**
 * Decides whether WebFetch may fetch a URL, before any DNS: only http(s), no credentials, and no
 * loopback, private, link-local, metadata or special-use host in any spelling. The tool must also
 * run {@link admitAddress} on the address it resolved, and dial that address.
 */
export function admitUrl(url: string, options: AdmitOptions = {}): Admission {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { ok: false, reason: `"${url.slice(0, 200)}" is not a valid URL; give a full http(s) URL` }
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, reason: `only http and https URLs can be fetched, not ${parsed.protocol}` }
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { ok: false, reason: 'URLs with credentials (user:password@) are refused; remove them' }
  }
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '')
  if (isAllowedPrivate(host, options)) return { ok: true, url: parsed.href, host }
  const refusal = hostRefusal(host)
  if (refusal) return { ok: false, reason: `${host} is ${refusal}; WebFetch only reaches public hosts` }
  return { ok: true, url: parsed.href, host }
}

/** Decides whether a resolved address may be dialed (any IPv4 spelling, IPv6, IPv4-mapped IPv6). */
export function admitAddress(address: string, options: AdmitOptions = {}): Admission {
  const host = address.toLowerCase()
  if (isAllowedPrivate(host, options)) return { ok: true, url: '', host }
  const v4 = parseIPv4(host)
  const v6 = v4 === undefined ? parseIPv6(host) : undefined
  if (v4 === undefined && v6 === undefined) return { ok: false, reason: `${address} is not an IP address` }
  const label = v4 !== undefined ? classifyIPv4(v4) : classifyIPv6(v6 as number[])
  if (label)
    return { ok: false, reason: `${address} is a ${label} address; WebFetch only reaches public hosts` }
  return { ok: true, url: '', host }
}

function isAllowedPrivate(host: string, options: AdmitOptions): boolean {
  const bare = host.replace(/^\[|\]$/g, '')
  return (options.allowedPrivateHosts ?? []).some(
    (allowed) => allowed.toLowerCase().replace(/^\[|\]$/g, '') === bare,
  )
}

function hostRefusal(host: string): string | undefined {
  if (host === '') return 'an empty host'
  const v6 = host.startsWith('[') ? parseIPv6(host) : undefined
  if (host.startsWith('[')) {
    if (!v6) return 'not a valid IPv6 address'
    const label = classifyIPv6(v6)
    return label ? `a ${label} address` : undefined
  }
  const v4 = parseIPv4(host)
  if (v4 !== undefined) {
    const label = classifyIPv4(v4)
    return label ? `a ${label} address` : undefined
  }
  if (SPECIAL_NAMES.includes(host) || SPECIAL_SUFFIXES.some((suffix) => host.endsWith(suffix)))
    return 'a local or special-use name'
  // A single-label name resolves through search domains to an intranet host.
  if (!host.includes('.')) return 'a single-label (intranet) name'
  return undefined
}
