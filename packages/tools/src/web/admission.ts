import { admitAddress, admitUrl } from '@z-engine/policy'

/** A check's verdict: pass, or why not (a sentence the model can act on). */
export type WebVerdict = { ok: true } | { ok: false; reason: string }

/** The address rules every hop of a fetch passes, with the user's private-host exceptions applied. */
export interface WebAdmission {
  /** Checks a URL before DNS (scheme, credentials, special hosts in any spelling). */
  url(url: string): { ok: true; url: URL } | { ok: false; reason: string }
  /** Checks one address `hostname` resolved to, before dialing it. */
  address(address: string, hostname: string): WebVerdict
}

const SETTING_HINT =
  'If this is an intranet host the user trusts, they can allow it by adding it to the `web.allowed_private_hosts` setting.'

/**
 * The policy's URL and address admission (`admitUrl`, `admitAddress`) for one fetch. A host listed
 * in `allowedPrivateHosts` (exact name or address, as the user wrote it in `web.allowed_private_hosts`)
 * may be private, and so may every address it resolves to; nothing else may.
 */
export function createWebAdmission(allowedPrivateHosts: readonly string[]): WebAdmission {
  const options = { allowedPrivateHosts }
  const allowed = new Set(allowedPrivateHosts.map(bare))
  return {
    url(url) {
      const verdict = admitUrl(url, options)
      if (!verdict.ok) return { ok: false, reason: `Refused ${url}: ${verdict.reason}. ${SETTING_HINT}` }
      try {
        return { ok: true, url: new URL(verdict.url) }
      } catch {
        return { ok: false, reason: `Refused ${url}: not a valid URL.` }
      }
    },
    address(address, hostname) {
      if (allowed.has(bare(hostname))) return { ok: true }
      const verdict = admitAddress(address, options)
      if (verdict.ok) return { ok: true }
      return {
        ok: false,
        reason: `Refused ${hostname}: it resolves to ${address}, and ${verdict.reason}. ${SETTING_HINT}`,
      }
    },
  }
}

function bare(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
}
