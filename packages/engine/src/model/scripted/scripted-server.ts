/**
 * A loopback HTTP server that answers model requests from a script in the real wire formats:
 * Anthropic Messages (`POST /v1/messages`), Chat Completions (`POST /v1/chat/completions`),
 * Responses (`POST /v1/responses`), streamed as SSE or as one JSON body when `stream` is false, and
 * Gemini (`POST /v1beta/models/<id>:streamGenerateContent?alt=sse`, or `:generateContent`, and
 * the `cachedContents` resource of explicit context caching). It records every request and injects
 * faults, so tests drive the real SDK clients end to end.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { faultResponse, type WireFormat } from './faults.js'
import { type ResolvedResponse, resolveResponse, type ScriptedResponse, type ScriptStep } from './script.js'
import { anthropicFrames, anthropicJson } from './wire/anthropic.js'
import { type ChatEncodeOptions, chatFrames, chatJson } from './wire/chat.js'
import { geminiError, geminiFrames, geminiJson } from './wire/gemini.js'
import { type ScriptedCache, ScriptedCaches } from './wire/gemini-caches.js'
import { responsesFrames, responsesJson } from './wire/responses.js'

export type { WireFormat } from './faults.js'

/** A request the server received. */
export interface RecordedRequest {
  format: WireFormat
  /** `POST`, or `DELETE` for a Gemini cache deletion. */
  method: string
  path: string
  headers: Record<string, string>
  /** The parsed JSON body (`{}` when it was not JSON). */
  body: Record<string, unknown>
  /** True when the client closed the connection before the response was complete (e.g. an abort). */
  closedEarly: boolean
}

/** Raw bytes to replay verbatim as a streamed response (a byte-exact fixture transcript). */
export interface ReplayStep {
  replay: string
  /** Write the bytes in pieces of this size, to exercise SSE parsing across TCP chunks (default: one write per frame). */
  chunkBytes?: number
}

/** One step the server can take. */
export type ServerStep = ScriptStep | ReplayStep

/** Steps in order, or a function of the request (which may answer with a promise of its step). */
export type ServerScript =
  | ServerStep[]
  | ((request: RecordedRequest, index: number) => ServerStep | undefined | Promise<ServerStep | undefined>)

/** Options of {@link startScriptedServer}. */
export interface ScriptedServerOptions extends Omit<ChatEncodeOptions, 'model'> {
  /** Delay between streamed frames ("slow chunks"), default 0. */
  chunkDelayMs?: number
  /** Port to listen on (default 0: any free port). Always bound to 127.0.0.1. */
  port?: number
  /** The smallest Gemini cache `cachedContents` accepts, in tokens (default 1024, Gemini 2.5 Flash's). */
  geminiCacheMinTokens?: number
}

/** A running scripted server. */
export interface ScriptedServer {
  /** `http://127.0.0.1:<port>`: the Anthropic SDK's baseURL. */
  url: string
  /** `<url>/v1`: the OpenAI SDK's baseURL. */
  openaiBaseUrl: string
  /** `<url>`: the Gemini SDK's baseUrl (it appends `/v1beta/models/…`). */
  geminiBaseUrl: string
  /**
   * Every request received, in order (Gemini cache calls included; they take no script step, and
   * script functions get the index of model requests only).
   */
  requests: RecordedRequest[]
  /** The Gemini caches alive now. */
  readonly geminiCaches: ScriptedCache[]
  close(): Promise<void>
}

const ROUTES: Record<string, WireFormat> = {
  '/v1/messages': 'anthropic',
  '/v1/chat/completions': 'openai-chat',
  '/v1/responses': 'openai-responses',
}

/** Gemini names the model and the method in the path; any API version is accepted. */
const GEMINI_ROUTE = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(streamGenerateContent|generateContent)$/
/** Gemini's cache resource: the collection, or one cache by id. */
const GEMINI_CACHES = /^\/v1(?:beta|alpha)?\/(cachedContents(?:\/[^/]+)?)$/

function routeOf(path: string): { format: WireFormat; model?: string; stream?: boolean } | undefined {
  const format = ROUTES[path]
  if (format !== undefined) return { format }
  const gemini = GEMINI_ROUTE.exec(path)
  if (gemini === null) return undefined
  return {
    format: 'gemini',
    model: decodeURIComponent(gemini[1] as string),
    stream: gemini[2] === 'streamGenerateContent',
  }
}

/** Starts the server on 127.0.0.1. */
export async function startScriptedServer(
  script: ServerScript,
  options: ScriptedServerOptions = {},
): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = []
  const caches = new ScriptedCaches(options.geminiCacheMinTokens ?? 1024)
  let modelRequests = 0
  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy())
  })
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    const route = routeOf(path)
    const format = route?.format
    const rawBody = await readBody(req)
    const cachePath = GEMINI_CACHES.exec(path)?.[1]
    if (cachePath !== undefined) {
      const body = parseObject(rawBody)
      requests.push({
        format: 'gemini',
        method: req.method ?? '',
        path,
        headers: headersOf(req),
        body,
        closedEarly: false,
      })
      const answer =
        req.method === 'POST' && cachePath === 'cachedContents'
          ? caches.create(body)
          : req.method === 'DELETE' && cachePath !== 'cachedContents'
            ? caches.delete(decodeURIComponent(cachePath))
            : {
                status: 404,
                body: geminiError(404, 'NOT_FOUND', `scripted server: no route for ${req.method} ${path}`),
              }
      sendJson(res, answer.status, answer.body)
      return
    }
    if (req.method !== 'POST' || route === undefined || format === undefined) {
      sendJson(res, 404, {
        error: { message: `scripted server: no route for ${req.method} ${path}`, type: 'not_found_error' },
      })
      return
    }
    const body = parseObject(rawBody)
    // Gemini says the model and streaming in the path; the encoders read them from the body.
    const wire =
      route.model !== undefined ? { ...body, model: route.model, stream: route.stream === true } : body
    const recorded: RecordedRequest = {
      format,
      method: req.method ?? '',
      path,
      headers: headersOf(req),
      body,
      closedEarly: false,
    }
    requests.push(recorded)
    // A request naming a Gemini cache is checked like the API does (a refusal takes no script step),
    // and reports the cache as cached tokens.
    const cached = route.model !== undefined ? caches.use(body, route.model) : { tokens: 0 }
    if ('status' in cached) {
      sendJson(res, cached.status, cached.body)
      return
    }
    const index = modelRequests++
    let finished = false
    res.on('close', () => {
      if (!finished) recorded.closedEarly = true
    })
    // A function may answer later (a benchmark holding a request until some state is reached).
    const step = Array.isArray(script) ? script[index] : await script(recorded, index)
    await respond(res, step, format, wire, index + 1, { ...options, cachedTokens: cached.tokens })
    finished = true
  }
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    geminiBaseUrl: url,
    requests,
    get geminiCaches() {
      return caches.live
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed === 'object' && parsed !== null) return parsed as Record<string, unknown>
  } catch {
    // Recorded as {}; the test will see it.
  }
  return {}
}

function headersOf(req: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(req.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : (value ?? ''),
    ]),
  )
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  })
  res.end(text)
}

/** Per-request encoding options: the server's, and the tokens of the Gemini cache the request names. */
type RespondOptions = ScriptedServerOptions & { cachedTokens?: number }

async function respond(
  res: ServerResponse,
  step: ServerStep | undefined,
  format: WireFormat,
  body: Record<string, unknown>,
  number: number,
  options: RespondOptions,
): Promise<void> {
  if (step === undefined) {
    sendJson(
      res,
      400,
      format === 'gemini'
        ? geminiError(400, 'INVALID_ARGUMENT', `scripted server: the script has no step ${number}`)
        : format === 'anthropic'
          ? {
              type: 'error',
              error: {
                type: 'invalid_request_error',
                message: `scripted server: the script has no step ${number}`,
              },
            }
          : {
              error: {
                message: `scripted server: the script has no step ${number}`,
                type: 'invalid_request_error',
                code: null,
              },
            },
    )
    return
  }
  if ('replay' in step) {
    await writeStream(res, splitBytes(step.replay, step.chunkBytes), options.chunkDelayMs ?? 0)
    return
  }
  if ('error' in step) {
    sendJson(res, 500, {
      error: {
        message: 'scripted server: "error" steps are for ScriptedClient; use "fault"',
        type: 'server_error',
      },
    })
    return
  }
  if ('fault' in step) {
    const fault = step.fault
    if (fault.type === 'drop') {
      const frames = encode(fault.response, format, number, String(body.model ?? 'scripted-model'), options)
      await writeStream(res, frames.slice(0, fault.afterFrames), options.chunkDelayMs ?? 0, false)
      // Let the written frames reach the client before the connection is cut.
      await new Promise((resolve) => setTimeout(resolve, 10))
      res.socket?.destroy()
      return
    }
    const error = faultResponse(fault, format)
    sendJson(res, error.status, error.body, error.headers)
    return
  }
  const model = String(body.model ?? 'scripted-model')
  if (body.stream !== true) {
    const resolved = withCachedTokens(resolveResponse(step, number), options.cachedTokens)
    sendJson(res, 200, encodeJson(resolved, format, number, model))
    return
  }
  await writeStream(res, encode(step, format, number, model, options), options.chunkDelayMs ?? 0)
}

function encode(
  response: ScriptedResponse,
  format: WireFormat,
  number: number,
  model: string,
  options: RespondOptions,
): string[] {
  const resolved = withCachedTokens(resolveResponse(response, number), options.cachedTokens)
  const encodeOptions: ChatEncodeOptions = { ...options, model }
  switch (format) {
    case 'anthropic':
      return anthropicFrames(resolved, `msg_scripted_${number}`, encodeOptions)
    case 'openai-chat':
      return chatFrames(resolved, `chatcmpl-scripted-${number}`, encodeOptions)
    case 'openai-responses':
      return responsesFrames(resolved, `resp_scripted_${number}`, encodeOptions)
    case 'gemini':
      return geminiFrames(resolved, `gemini_scripted_${number}`, number, encodeOptions)
    default: {
      const unreachable: never = format
      return unreachable
    }
  }
}

/** A response over a cache reads the whole cache: its size replaces the script's cache reads. */
function withCachedTokens(resolved: ResolvedResponse, tokens: number | undefined): ResolvedResponse {
  if (tokens === undefined || tokens === 0) return resolved
  return { ...resolved, usage: { ...resolved.usage, cacheReadTokens: tokens } }
}

function encodeJson(resolved: ResolvedResponse, format: WireFormat, number: number, model: string): object {
  switch (format) {
    case 'anthropic':
      return anthropicJson(resolved, `msg_scripted_${number}`, { model })
    case 'openai-chat':
      return chatJson(resolved, `chatcmpl-scripted-${number}`, { model })
    case 'openai-responses':
      return responsesJson(resolved, `resp_scripted_${number}`, { model })
    case 'gemini':
      return geminiJson(resolved, `gemini_scripted_${number}`, number, { model })
    default: {
      const unreachable: never = format
      return unreachable
    }
  }
}

/** Fixture text → pieces: whole SSE frames by default, or fixed-size byte slices. */
function splitBytes(text: string, chunkBytes: number | undefined): Array<string | Buffer> {
  if (chunkBytes === undefined) return text.split(/(?<=\n\n)/)
  const bytes = Buffer.from(text, 'utf8')
  const pieces: Buffer[] = []
  for (let offset = 0; offset < bytes.length; offset += chunkBytes)
    pieces.push(bytes.subarray(offset, offset + chunkBytes))
  return pieces
}

async function writeStream(
  res: ServerResponse,
  pieces: Array<string | Buffer>,
  delayMs: number,
  end = true,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  })
  res.flushHeaders()
  for (const piece of pieces) {
    if (res.destroyed || res.writableEnded) return
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
    if (res.destroyed) return
    if (!res.write(piece))
      await new Promise<void>((resolve) => res.once('drain', () => resolve()).once('close', () => resolve()))
  }
  if (end && !res.destroyed) res.end()
}
