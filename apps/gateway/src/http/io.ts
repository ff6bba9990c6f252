/** Small HTTP helpers: bounded body reading, JSON and error replies. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { errorBody, type GatewayError } from '../wire/errors.js'

/** Reads the request body up to `limit` bytes; `too_large` past it (the rest is not buffered). */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? Number.NaN)
    if (Number.isFinite(declared) && declared > limit) {
      req.resume()
      resolve('too_large')
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    let over = false
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) over = true
      if (!over) chunks.push(chunk)
    })
    req.on('end', () => resolve(over ? 'too_large' : Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/** Parses a JSON body; undefined when it is not JSON (an empty body is `{}`). */
export function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  if (body.length === 0) return { ok: true, value: {} }
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) }
  } catch {
    return { ok: false }
  }
}

/** Sends a JSON reply. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

/** Sends an OpenAI-shaped error. */
export function sendError(res: ServerResponse, error: GatewayError): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  sendJson(res, error.status, errorBody(error))
}
