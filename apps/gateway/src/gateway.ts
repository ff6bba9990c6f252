/** Assembles a gateway from its config: storage (from the URL), upstream, executor, HTTP server. */
import type { Writable } from 'node:stream'
import { type GatewayConfig, gatewayConfig } from './config.js'
import { Executor } from './executor/executor.js'
import { createAuthenticator, hashApiKey } from './http/auth.js'
import { jsonLogger, type Logger } from './http/log.js'
import { Metrics } from './http/metrics.js'
import { type GatewayServer, startHttpServer } from './http/server.js'
import { openStorage, parseStorageUrl, redactUrl, type StorageOptions } from './storage/open.js'
import { createToolsets } from './tools/toolsets.js'
import { Upstream } from './upstream/upstream.js'

/** Options of {@link startGateway}. */
export interface StartGatewayOptions {
  config: Parameters<typeof gatewayConfig>[0]
  /** `sqlite:PATH` or `postgres://…`. */
  db: string
  storage?: StorageOptions
  host?: string
  port?: number
  /** Where log lines go (default stderr); or a logger of your own. */
  log?: Writable | Logger
}

/** A running gateway and what it was started with. */
export interface RunningGateway extends GatewayServer {
  config: GatewayConfig
}

/** Opens storage, starts the server; throws with a message naming what to fix. */
export async function startGateway(options: StartGatewayOptions): Promise<RunningGateway> {
  const config = gatewayConfig(options.config)
  const target = parseStorageUrl(options.db)
  if ('error' in target) throw new Error(target.error)
  if (config.apiKeys.some((key) => key.trim() === ''))
    throw new Error(
      'A blank API key would accept any caller presenting an empty key: remove it or set a real one.',
    )
  const secrets = [...config.apiKeys, ...(config.upstreamApiKey ? [config.upstreamApiKey] : [])]
  if (target.backend === 'postgres') {
    const password = safePassword(target.url)
    if (password) secrets.push(password)
  }
  const log: Logger =
    typeof options.log === 'function' ? options.log : jsonLogger(options.log ?? process.stderr, secrets)
  const storage = await openStorage(target, options.storage)
  const metrics = new Metrics()
  const upstream = new Upstream(config, metrics)
  const executor = new Executor(storage, upstream, config, createToolsets(config), metrics)
  const authenticator = createAuthenticator({
    keys: [
      // Plain keys from flags or the environment: the single-tenant setup, tenant ''.
      ...config.apiKeys.map((key, index) => ({
        id: `key-${index + 1}`,
        sha256: hashApiKey(key),
        tenant: '',
      })),
      ...config.apiKeyEntries,
    ],
    ...(config.oidc ? { oidc: config.oidc } : {}),
  })
  const server = await startHttpServer({
    executor,
    upstream,
    config,
    log,
    authenticator,
    metrics,
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
  })
  log({
    level: 'info',
    msg: 'gateway listening',
    url: server.url,
    upstream: redactUrl(config.upstreamUrl),
    db: target.backend === 'postgres' ? redactUrl(target.url) : `sqlite:${target.path}`,
    auth:
      [
        ...(config.apiKeys.length + config.apiKeyEntries.length > 0 ? ['keys'] : []),
        ...(config.oidc ? ['oidc'] : []),
      ].join('+') || 'none',
  })
  return { ...server, config }
}

function safePassword(url: string): string | undefined {
  try {
    const password = decodeURIComponent(new URL(url).password)
    return password === '' ? undefined : password
  } catch {
    return undefined
  }
}
