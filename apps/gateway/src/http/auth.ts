/**
 * Who is calling: static API keys (only their SHA-256 is kept, in memory and in the key file) or OIDC
 * bearer tokens (issuer discovery, JWKS fetched, cached and refreshed by `jose`, issuer and audience
 * checked). The principal's tenant scopes stored conversations and responses; its key's limits
 * bound its request rate and body size. Without keys and without OIDC, everyone is the '' tenant.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { createRemoteJWKSet, type JWTVerifyGetKey, errors as joseErrors, jwtVerify } from 'jose'

/** A static key as the operator's key file holds it: never the key itself. */
export interface ApiKeyEntry {
  /** A name for logs and rate limits. */
  id: string
  /** Hex SHA-256 of the key (`printf %s "$KEY" | sha256sum`). */
  sha256: string
  /** The tenant its requests act as (default: the id). */
  tenant?: string
  /** Requests per minute (a token bucket); unlimited when absent. */
  requestsPerMinute?: number
  /** Largest request body in bytes (at most the gateway's own ceiling). */
  maxRequestBytes?: number
}

/** OIDC settings: tokens must be signed by the issuer's keys, for this audience. */
export interface OidcSettings {
  issuer: string
  audience: string
  /** The JWKS URL; default: `jwks_uri` from `<issuer>/.well-known/openid-configuration`. */
  jwksUrl?: string
  /** The claim naming the tenant (default `sub`). */
  tenantClaim?: string
  /** Requests per minute per subject. */
  requestsPerMinute?: number
}

/** An authenticated caller. */
export interface Principal {
  tenant: string
  /** The key id or the token's subject (for logs and rate limits). */
  subject: string
  via: 'none' | 'key' | 'oidc'
  /** Seconds since the epoch when a token stops being valid. */
  expiresAt?: number
  requestsPerMinute?: number
  maxRequestBytes?: number
}

/** Why a request was refused (401, or 503 when the issuer cannot be reached). */
export interface AuthFailure {
  status: 401 | 503
  message: string
}

/** Turns request headers into a principal. */
export interface Authenticator {
  /** True when requests must authenticate. */
  readonly required: boolean
  authenticate(headers: IncomingHttpHeaders): Promise<Principal | AuthFailure>
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest()
}

/** The hex SHA-256 of a key, as a key file holds it. */
export function hashApiKey(key: string): string {
  return digest(key).toString('hex')
}

function presented(headers: IncomingHttpHeaders): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]?.trim()
  if (bearer) return bearer
  // The Anthropic SDK sends its key as x-api-key.
  const key = headers['x-api-key']
  return typeof key === 'string' && key.trim() !== '' ? key.trim() : undefined
}

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/

/** Builds the authenticator; `fetchImpl` is for discovery (tests point it at a local issuer). */
export function createAuthenticator(options: {
  keys: readonly ApiKeyEntry[]
  oidc?: OidcSettings
}): Authenticator {
  const entries = options.keys.map((entry) => ({ entry, hash: Buffer.from(entry.sha256, 'hex') }))
  const oidc = options.oidc
  let jwks: Promise<JWTVerifyGetKey> | undefined
  const keySet = (): Promise<JWTVerifyGetKey> => {
    if (!oidc) throw new Error('no OIDC issuer')
    jwks ??= (async () => {
      let url = oidc.jwksUrl
      if (!url) {
        const response = await fetch(`${oidc.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, {
          signal: AbortSignal.timeout(10_000),
        })
        if (!response.ok) throw new Error(`discovery answered HTTP ${response.status}`)
        const document = (await response.json()) as { jwks_uri?: unknown; issuer?: unknown }
        if (typeof document.jwks_uri !== 'string') throw new Error('the discovery document has no jwks_uri')
        url = document.jwks_uri
      }
      // jose caches the keys and refetches when a token names a key id it has not seen (rotation).
      return createRemoteJWKSet(new URL(url), { cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 })
    })()
    jwks.catch(() => {
      jwks = undefined
    })
    return jwks
  }

  const byKey = (token: string): Principal | undefined => {
    const given = digest(token)
    let found: ApiKeyEntry | undefined
    // Every entry is compared, in constant time, so timing reveals neither which nor how much matched.
    for (const { entry, hash } of entries)
      if (hash.length === given.length && timingSafeEqual(hash, given)) found = entry
    if (!found) return undefined
    return {
      tenant: found.tenant ?? found.id,
      subject: found.id,
      via: 'key',
      ...(found.requestsPerMinute === undefined ? {} : { requestsPerMinute: found.requestsPerMinute }),
      ...(found.maxRequestBytes === undefined ? {} : { maxRequestBytes: found.maxRequestBytes }),
    }
  }

  const byToken = async (token: string): Promise<Principal | AuthFailure> => {
    if (!oidc) return { status: 401, message: 'Invalid API key.' }
    let getKey: JWTVerifyGetKey
    try {
      getKey = await keySet()
    } catch (error) {
      return {
        status: 503,
        message: `The identity provider cannot be reached (${(error as Error).message}); retry later.`,
      }
    }
    try {
      const { payload } = await jwtVerify(token, getKey, { issuer: oidc.issuer, audience: oidc.audience })
      const claim = payload[oidc.tenantClaim ?? 'sub']
      if (typeof claim !== 'string' || claim === '')
        return {
          status: 401,
          message: `The token has no '${oidc.tenantClaim ?? 'sub'}' claim to scope its data by.`,
        }
      return {
        tenant: claim,
        subject: typeof payload.sub === 'string' ? payload.sub : claim,
        via: 'oidc',
        ...(typeof payload.exp === 'number' ? { expiresAt: payload.exp } : {}),
        ...(oidc.requestsPerMinute === undefined ? {} : { requestsPerMinute: oidc.requestsPerMinute }),
      }
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) return { status: 401, message: 'The token has expired.' }
      if (error instanceof joseErrors.JWTClaimValidationFailed)
        return { status: 401, message: `The token was refused: ${error.message}.` }
      if (
        error instanceof joseErrors.JWKSNoMatchingKey ||
        error instanceof joseErrors.JWSSignatureVerificationFailed
      )
        return { status: 401, message: 'The token is not signed by the issuer.' }
      if (error instanceof joseErrors.JOSEError)
        return { status: 401, message: `The token was refused (${error.code}).` }
      return { status: 503, message: `The token could not be checked (${(error as Error).message}).` }
    }
  }

  const required = entries.length > 0 || oidc !== undefined
  return {
    required,
    async authenticate(headers) {
      if (!required) return { tenant: '', subject: 'anonymous', via: 'none' }
      const token = presented(headers)
      if (!token)
        return {
          status: 401,
          message: 'Missing credentials: send Authorization: Bearer <key or token> (or x-api-key).',
        }
      const keyed = byKey(token)
      if (keyed) return keyed
      if (oidc && JWT.test(token)) return byToken(token)
      return { status: 401, message: 'Invalid API key.' }
    },
  }
}

/** A token bucket per subject: `requestsPerMinute` capacity, refilled continuously. */
export class RateLimiter {
  readonly #buckets = new Map<string, { tokens: number; at: number }>()

  /** Takes one request; the seconds to wait when the bucket is empty. */
  take(
    subject: string,
    perMinute: number,
    now = Date.now(),
  ): { ok: true } | { ok: false; retryAfter: number } {
    const bucket = this.#buckets.get(subject) ?? { tokens: perMinute, at: now }
    bucket.tokens = Math.min(perMinute, bucket.tokens + ((now - bucket.at) / 60_000) * perMinute)
    bucket.at = now
    this.#buckets.set(subject, bucket)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return { ok: true }
    }
    return { ok: false, retryAfter: Math.max(1, Math.ceil(((1 - bucket.tokens) * 60) / perMinute)) }
  }
}
