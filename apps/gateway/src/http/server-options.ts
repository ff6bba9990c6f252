import type { GatewayConfig } from '../config.js'
import type { Executor } from '../executor/executor.js'
import type { Upstream } from '../upstream/upstream.js'
import type { Authenticator } from './auth.js'
import type { Logger } from './log.js'
import type { Metrics } from './metrics.js'

/** What the HTTP server is started with. */
export interface ServerOptions {
  executor: Executor
  upstream: Upstream
  config: GatewayConfig
  log: Logger
  authenticator: Authenticator
  metrics: Metrics
  host: string
  port: number
}

/** What the server's requests share while it runs. */
export interface ServerState {
  /** Set once `close()` starts: new requests and upgrades get 503. */
  closing: boolean
  /** Each open request's abort handle and its settling, for the drain. */
  inflight: Map<AbortController, Promise<void>>
}
