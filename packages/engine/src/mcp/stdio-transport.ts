import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { PassThrough } from 'node:stream'
import {
  type JSONRPCMessage,
  ReadBuffer,
  serializeMessage,
  type Transport,
} from '@modelcontextprotocol/client'
import { type ArgvConfiner, killProcessTree, processTree } from '@z-engine/host'
import { confineOrAsIs, spawnConfined } from '../util/spawn-confined.js'

/** What a stdio server is started from. */
export interface SupervisedStdioOptions {
  command: string
  args: readonly string[]
  env: Record<string, string>
  cwd: string
  /** Puts the server into the session's sandbox (issue 34); absent: it starts unconfined. */
  confine?: ArgvConfiner
}

/**
 * The SDK's stdio client transport, but with the server started by the host as the leader of its
 * own process group under the watchdog: the SDK's transport spawns into the engine's group, where
 * nothing can kill the server's tree when the engine is SIGKILLed. Messages are framed with the
 * SDK's own `ReadBuffer` / `serializeMessage`. `close` kills the whole group (an `npx` wrapper and
 * the server it started alike).
 */
export class SupervisedStdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  /** The server's stderr, readable from before `start` so early output is not lost. */
  readonly stderr = new PassThrough()
  readonly #buffer = new ReadBuffer()
  #delivering = false
  #child: ChildProcessWithoutNullStreams | undefined
  #closed = false

  constructor(private readonly options: SupervisedStdioOptions) {}

  /** The server's pid (also its process group id) once started. */
  get pid(): number | undefined {
    return this.#child?.pid
  }

  async start(): Promise<void> {
    if (this.#child) throw new Error('the stdio transport is already started')
    const argv = [this.options.command, ...this.options.args]
    const confined = await confineOrAsIs(this.options.confine, argv, this.options.cwd)
    return new Promise((resolve, reject) => {
      const child = spawnConfined(confined, this.options.cwd, this.options.env)
      this.#child = child
      child.once('error', (error) => {
        reject(error)
        this.onerror?.(error)
      })
      child.once('spawn', () => resolve())
      child.once('close', () => {
        if (this.#closed) return
        this.#closed = true
        this.onclose?.()
      })
      child.stdin.on('error', (error) => this.onerror?.(error))
      child.stdout.on('error', (error) => this.onerror?.(error))
      child.stdout.on('data', (chunk: Buffer) => {
        this.#buffer.append(chunk)
        void this.#deliver()
      })
      child.stderr.pipe(this.stderr)
    })
  }

  /**
   * Hands each whole message read so far to the client, in order. The SDK runs a notification's
   * handler one microtask later but settles a response at once, dropping that request's progress
   * handler; so after a notification this yields a microtask, or a progress notification read in
   * the same chunk as its result (a fast server on a loaded machine) would be lost.
   */
  async #deliver(): Promise<void> {
    if (this.#delivering) return
    this.#delivering = true
    try {
      for (;;) {
        let message: JSONRPCMessage | null
        try {
          message = this.#buffer.readMessage()
        } catch (error) {
          // A line that is not JSON-RPC (a server logging to stdout) is reported and skipped.
          this.onerror?.(error as Error)
          continue
        }
        if (message === null) break
        this.onmessage?.(message)
        if (!('id' in message)) await Promise.resolve()
      }
    } finally {
      this.#delivering = false
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin
    if (!stdin || this.#closed) return Promise.reject(new Error('the MCP server is not running'))
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve()
      else stdin.once('drain', resolve)
    })
  }

  /** Closes stdin and kills the server's process group (SIGTERM, SIGKILL after `graceMs`). */
  async close(graceMs = 1_000): Promise<void> {
    const child = this.#child
    const wasClosed = this.#closed
    this.#closed = true
    this.#buffer.clear()
    if (child) {
      child.stdin.end()
      // The group outlives its leader when the server left children behind; they go too.
      const running = child.exitCode === null && child.signalCode === null
      if (child.pid !== undefined && (running || processTree(child.pid, []).length > 0))
        await killProcessTree(child.pid, graceMs)
    }
    if (!wasClosed) this.onclose?.()
  }
}
