import type { Server } from 'node:http'
import type { ServerOptions, ServerState } from './server-options.js'
import type { WebSocketEndpoint } from './websocket.js'

/**
 * Graceful shutdown: stop accepting, let open requests finish (up to `drainTimeoutMs`, then cancel
 * them), close the WebSocket sessions, give background responses the same grace, close storage.
 */
export async function closeServer(
  server: Server,
  options: ServerOptions,
  state: ServerState,
  websockets: WebSocketEndpoint,
): Promise<void> {
  const { config, executor } = options
  state.closing = true
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()))
  server.closeIdleConnections()
  const drained = Promise.all(state.inflight.values()).then(() => true)
  const timedOut = new Promise<false>((resolve) =>
    setTimeout(() => resolve(false), config.drainTimeoutMs).unref(),
  )
  if (!(await Promise.race([drained, timedOut]))) {
    options.log({
      level: 'warn',
      msg: 'drain timed out; cancelling open requests',
      open: state.inflight.size,
    })
    for (const controller of state.inflight.keys()) controller.abort()
    await Promise.all(state.inflight.values())
  }
  await websockets.close(config.drainTimeoutMs)
  // Background responses get the same grace; the executor cancels those still running as it closes.
  if (!(await executor.drainBackground(config.drainTimeoutMs)))
    options.log({ level: 'warn', msg: 'drain timed out; cancelling background responses' })
  server.closeAllConnections()
  await stopped
  await executor.close()
}
