import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client'

/** One end of an in-memory pair: what is sent on it arrives at the other end's `onmessage`. */
class MemoryEnd implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  peer: MemoryEnd | undefined
  #closed = false
  // Messages sent before the other end started are held, as a socket buffers them.
  #pending: JSONRPCMessage[] = []
  #started = false

  async start(): Promise<void> {
    this.#started = true
    for (const message of this.#pending.splice(0)) this.onmessage?.(message)
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error('the in-process MCP connection is closed')
    const peer = this.peer
    if (peer === undefined) return
    // Delivered on a later tick so neither side re-enters the other's handler.
    queueMicrotask(() => peer.#deliver(message))
  }

  #deliver(message: JSONRPCMessage): void {
    if (this.#closed) return
    if (this.#started) this.onmessage?.(message)
    else this.#pending.push(message)
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.onclose?.()
    await this.peer?.close()
  }
}

/** A connected pair of transports for a server that runs in this process: `[client, server]`. */
export function memoryTransportPair(): [Transport, Transport] {
  const client = new MemoryEnd()
  const server = new MemoryEnd()
  client.peer = server
  server.peer = client
  return [client, server]
}
