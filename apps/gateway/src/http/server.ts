/** The gateway's HTTP server: routing, authentication, request tracking and graceful shutdown. */

import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { RateLimiter } from './auth.js'
import { loopbackRefusal } from './loopback-guard.js'
import { serveRequest } from './serve-request.js'
import { closeServer } from './server-close.js'
import type { ServerOptions, ServerState } from './server-options.js'
import { createWebSocketEndpoint } from './websocket.js'

/** A listening gateway. */
export interface GatewayServer {
  /** `http://host:port` (the OpenAI SDK's baseURL is this plus `/v1`). */
  url: string
  port: number
  /** Stops accepting, lets open requests finish (up to `drainTimeoutMs`), cancels the rest, closes storage. */
  close(): Promise<void>
}

/** An upgrade refused before any WebSocket handshake: a bare status line, then the socket closes. */
function refuseUpgrade(options: ServerOptions, state: ServerState, req: IncomingMessage): string | undefined {
  const path = new URL(req.url ?? '/', 'http://gateway').pathname
  if (state.closing) return '503 Service Unavailable'
  if (!options.authenticator.required && loopbackRefusal(req.headers, options.host) !== undefined)
    return '403 Forbidden'
  if (req.method !== 'GET' || path !== '/v1/responses') return '404 Not Found'
  return undefined
}

/** Starts the HTTP server on `host:port` (port 0: any free port). */
export async function startHttpServer(options: ServerOptions): Promise<GatewayServer> {
  const { executor, config, authenticator } = options
  const limiter = new RateLimiter()
  const state: ServerState = { closing: false, inflight: new Map() }
  const server: Server = createServer((req, res) => serveRequest(options, state, limiter, req, res))
  server.keepAliveTimeout = 5000
  const websockets = createWebSocketEndpoint({ executor, config, authenticator, log: options.log })
  server.on('upgrade', (req, socket, head) => {
    const refused = refuseUpgrade(options, state, req)
    if (refused !== undefined)
      socket.end(`HTTP/1.1 ${refused}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`)
    else websockets.handleUpgrade(req, socket, head)
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const host = options.host.includes(':') ? `[${options.host}]` : options.host
  return { url: `http://${host}:${port}`, port, close: () => closeServer(server, options, state, websockets) }
}
