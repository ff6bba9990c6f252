/** One address a host name resolved to. */
export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/**
 * Resolves a host name to every address it has. Injected so tests (and embedders with their own
 * DNS) decide what a name resolves to; the fetch checks every address before connecting.
 */
export type HostResolver = (hostname: string, signal: AbortSignal) => Promise<ResolvedAddress[]>

/** The system resolver (`getaddrinfo`, so `/etc/hosts` applies, as it would for the connection). */
export const systemResolver: HostResolver = async (hostname, signal) => {
  signal.throwIfAborted()
  // Loaded on first use, off the startup path (issue 17).
  const { lookup } = await import('node:dns/promises')
  const results = await lookup(hostname, { all: true, verbatim: true })
  return results.map((result) => ({ address: result.address, family: result.family === 6 ? 6 : 4 }))
}
