/** What every route handler gets. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { GatewayConfig } from '../config.js'
import type { Executor } from '../executor/executor.js'
import type { Upstream } from '../upstream/upstream.js'
import type { Principal } from './auth.js'
import type { Logger } from './log.js'
import type { Metrics } from './metrics.js'

/** A request's context. */
export interface RouteContext {
  req: IncomingMessage
  res: ServerResponse
  params: string[]
  query: URLSearchParams
  executor: Executor
  metrics: Metrics
  upstream: Upstream
  config: GatewayConfig
  log: Logger
  /** Aborted when the client goes away or shutdown gives up waiting. */
  signal: AbortSignal
  /** Who is calling; its tenant scopes every stored id. */
  principal: Principal
  /** This request's id (also in the `x-request-id` / `request-id` headers and every log line). */
  requestId: string
  /** The body ceiling for this caller (the key's, at most the gateway's). */
  maxRequestBytes: number
}
