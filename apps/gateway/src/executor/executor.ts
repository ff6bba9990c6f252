/**
 * The executor: the only door into storage. HTTP handlers call these methods; each rehydrates,
 * runs, persists (one turn, atomically, after the stream is accumulated) and returns public shapes.
 */
import type { GatewayConfig } from '../config.js'
import type { Metrics } from '../http/metrics.js'
import type { Storage } from '../storage/types.js'
import { isStorageUnavailable } from '../storage/unavailable.js'
import type { GatewayToolset } from '../tools/gateway-tools.js'
import { gatewayRuns } from '../tools/ownership.js'
import type { Upstream } from '../upstream/upstream.js'
import { type GatewayError, invalidRequest, notFound } from '../wire/errors.js'
import { newId } from '../wire/ids.js'
import { isObject, type JsonObject } from '../wire/json.js'
import type { CompactRequest, CreateResponseRequest } from '../wire/request.js'
import { BackgroundRun, BackgroundRuns } from './background.js'
import { compactHistory } from './compact.js'
import { Conversations, type ListOptions } from './conversations.js'
import { checkPendingCalls, modelInput, toInputItem } from './items.js'
import { persistTurn } from './persist.js'
import { type Rehydrated, type ResponseSession, rehydrate } from './rehydrate.js'
import { now } from './stored-items.js'
import { runTurn, type TurnSink } from './turn.js'
import { responseSkeleton } from './turn-request.js'

/** Builds the gateway tools a request declares (undefined when it declares none), or refuses them. */
export type ToolsetFactory = (
  request: CreateResponseRequest,
  signal: AbortSignal,
) => Promise<GatewayToolset | undefined | GatewayError>

/** The result of creating a response. */
export type CreateResult =
  | { kind: 'response'; response: JsonObject }
  | { kind: 'error'; error: GatewayError }
  | { kind: 'aborted' }

/** A request checked and rehydrated, its gateway tools built. */
interface Prepared {
  rehydrated: Rehydrated
  history: JsonObject[]
  toolset: GatewayToolset | undefined
}

/** The gateway's request lifecycle and storage operations. */
export class Executor {
  readonly #storage: Storage
  readonly #upstream: Upstream
  readonly #config: GatewayConfig
  readonly #toolsets: ToolsetFactory
  readonly #metrics: Metrics | undefined
  readonly #background = new BackgroundRuns()
  /** The Conversations API (`/v1/conversations…`). */
  readonly conversations: Conversations

  constructor(
    storage: Storage,
    upstream: Upstream,
    config: GatewayConfig,
    toolsets: ToolsetFactory,
    metrics?: Metrics,
  ) {
    this.#storage = storage
    this.conversations = new Conversations(storage)
    this.#upstream = upstream
    this.#config = config
    this.#toolsets = toolsets
    this.#metrics = metrics
    metrics?.observePool(() => storage.poolState())
  }

  /** The storage backend's name (for logs). */
  get backend(): string {
    return this.#storage.backend
  }

  /**
   * True when a request needs the executor (stored, continued, in a conversation, using a tool the
   * gateway runs, or the upstream speaks only Chat); anything else — client tools of any type
   * included — is passed through to upstream unchanged.
   */
  isStateful(request: CreateResponseRequest): boolean {
    // A Chat-only upstream has no /responses to pass through to: every request is translated here.
    if (this.#config.upstreamApi === 'chat') return true
    return (
      request.store ||
      request.previousResponseId !== null ||
      request.conversationId !== null ||
      request.tools.some((tool) => gatewayRuns(tool, this.#config)) ||
      request.input.some((item) => item.type === 'compaction')
    )
  }

  /** Runs a stateful response; with a sink it streams, and the terminal event follows persistence. */
  async createResponse(
    request: CreateResponseRequest,
    sink: TurnSink | undefined,
    signal: AbortSignal,
    tenant = '',
    session?: ResponseSession,
  ): Promise<CreateResult> {
    const prepared = await this.#prepare(request, signal, tenant, session)
    if ('status' in prepared) return { kind: 'error', error: prepared }
    return this.#run(request, prepared, sink, signal, tenant, session, newId('resp'), now())
  }

  /**
   * Starts a background response: checked and rehydrated now (so a bad request is still its HTTP
   * error), then run detached from the request; it is persisted when it ends, as any response.
   */
  async createBackground(request: CreateResponseRequest, tenant = ''): Promise<BackgroundRun | GatewayError> {
    const responseId = newId('resp')
    const createdAt = now()
    const run = new BackgroundRun(responseId, tenant, {
      ...responseSkeleton(request, responseId, createdAt),
      status: 'queued',
    })
    const prepared = await this.#prepare(request, run.controller.signal, tenant)
    if ('status' in prepared) return prepared
    this.#background.add(run)
    const { signal } = run.controller
    void this.#run(request, prepared, run.sink(), signal, tenant, undefined, responseId, createdAt).then(
      (result) => {
        switch (result.kind) {
          case 'response':
            return run.finish(result.response)
          case 'aborted':
            return run.finish({ ...run.snapshot, status: 'cancelled' })
          case 'error':
            return run.finish({
              ...run.snapshot,
              status: 'failed',
              error: { code: result.error.code ?? 'server_error', message: result.error.message },
            })
          default: {
            const unreachable: never = result
            throw new Error(`unknown result ${JSON.stringify(unreachable)}`)
          }
        }
      },
      (error: unknown) =>
        run.finish({
          ...run.snapshot,
          status: 'failed',
          error: {
            code: isStorageUnavailable(error) ? 'storage_unavailable' : 'server_error',
            message: isStorageUnavailable(error)
              ? 'The database was unavailable when this response ended; nothing was stored.'
              : 'The gateway failed; nothing was stored.',
          },
        }),
    )
    return run
  }

  /** Rehydrates and checks a request, and builds its gateway tools: everything a run needs first. */
  async #prepare(
    request: CreateResponseRequest,
    signal: AbortSignal,
    tenant: string,
    session?: ResponseSession,
  ): Promise<Prepared | GatewayError> {
    const rehydrated = await rehydrate(
      this.#storage,
      this.conversations,
      this.#config.limits,
      request,
      tenant,
      session,
    )
    if ('status' in rehydrated) return rehydrated
    const history = rehydrated.history.flatMap((item) => {
      const converted = toInputItem(item)
      return converted ? [converted] : []
    })
    const pending = checkPendingCalls(history, request.input)
    if (pending) return pending
    const checked = modelInput([...history, ...request.input])
    if (!Array.isArray(checked)) return checked
    const tools = await this.#toolsets(request, signal)
    if (isObject(tools) && 'status' in tools) return tools as GatewayError
    return { rehydrated, history, toolset: tools as GatewayToolset | undefined }
  }

  async #run(
    request: CreateResponseRequest,
    { rehydrated, history, toolset }: Prepared,
    sink: TurnSink | undefined,
    signal: AbortSignal,
    tenant: string,
    session: ResponseSession | undefined,
    responseId: string,
    createdAt: number,
  ): Promise<CreateResult> {
    try {
      const result = await runTurn({
        request,
        responseId,
        createdAt,
        history,
        tools: toolset,
        upstream: this.#upstream,
        config: this.#config,
        sink,
        signal,
      })
      if (result.kind !== 'finished') return result
      let response = result.response
      let sequence = result.sequence
      const emit = async (type: string, body: JsonObject, json?: string): Promise<void> => {
        await sink?.send(type, { type, sequence_number: sequence++, response: body }, json)
      }
      // The terminal event is serialized once: measured here, written as it is if nothing changes it.
      const terminalJson = sink
        ? JSON.stringify({ type: result.terminal, sequence_number: sequence, response })
        : undefined
      if (
        terminalJson !== undefined &&
        Buffer.byteLength(terminalJson) > this.#config.limits.maxStreamEventBytes
      ) {
        // Checked before persistence: a response the client cannot receive is not stored either.
        response = {
          ...response,
          status: 'failed',
          output: [],
          error: {
            code: 'max_stream_event_bytes',
            message: `The final response event would exceed ${this.#config.limits.maxStreamEventBytes} bytes (maxStreamEventBytes); nothing was stored.`,
          },
        }
        await emit('response.failed', response)
        return { kind: 'response', response }
      }
      if (request.store && response.status !== 'failed') {
        const persisted = await persistTurn(
          this.#storage,
          this.#metrics,
          request,
          responseId,
          createdAt,
          response,
          result.items,
          rehydrated.expect,
          tenant,
          rehydrated.transient ? rehydrated.history : undefined,
        )
        if (persisted) {
          if (!sink) return { kind: 'error', error: persisted }
          response = {
            ...response,
            status: 'failed',
            error: { code: persisted.code ?? 'conflict', message: persisted.message },
          }
          await emit('response.failed', response)
          return { kind: 'response', response }
        }
      }
      if (response.status !== 'failed')
        session?.retain(
          responseId,
          [
            ...rehydrated.history,
            ...result.items.filter((entry) => entry.visibility !== 'public').map((entry) => entry.item),
          ],
          request,
          response,
        )
      if (sink) {
        await emit(result.terminal, response, response === result.response ? terminalJson : undefined)
      } else if (response.status === 'failed') {
        const error = isObject(response.error) ? response.error : {}
        return {
          kind: 'error',
          error: {
            status: 502,
            type: 'upstream_error',
            message: String(error.message ?? 'The upstream model failed this response.'),
            code: typeof error.code === 'string' ? error.code : 'upstream_failed',
          },
        }
      }
      return { kind: 'response', response }
    } finally {
      await toolset?.close()
    }
  }

  /** `GET /v1/responses/{id}`: a background response as it is now (queued, in progress, or ended). */
  async getResponse(id: string, tenant = ''): Promise<JsonObject | GatewayError> {
    const run = this.#background.get(id, tenant)
    if (run) return run.snapshot
    const stored = await this.#storage.getResponse(id)
    return stored && stored.tenant === tenant ? stored.snapshot : notFound('response', id)
  }

  /**
   * `POST /v1/responses/{id}/cancel`: stops a running background response (status `cancelled`,
   * nothing stored); an ended one is answered as it is, as OpenAI does; a foreground one is a 400.
   */
  async cancelResponse(id: string, tenant = ''): Promise<JsonObject | GatewayError> {
    const run = this.#background.get(id, tenant)
    if (run) {
      if (!run.finished) {
        run.controller.abort()
        await run.settled()
      }
      return run.snapshot
    }
    const stored = await this.#storage.getResponse(id)
    if (!stored || stored.tenant !== tenant) return notFound('response', id)
    if (stored.snapshot.background === true) return stored.snapshot
    return invalidRequest(
      `Only a background response can be cancelled; ${id} ran in the foreground and is ${stored.status}.`,
      null,
      'response_not_cancellable',
    )
  }

  /**
   * `GET /v1/responses/{id}?stream=true`: a background response's events to replay and follow, or why
   * not (a foreground response has none; a background one's are kept for an hour after it ends, in
   * the gateway process that ran it).
   */
  async responseEvents(id: string, tenant = ''): Promise<BackgroundRun | GatewayError> {
    const run = this.#background.get(id, tenant)
    if (run?.replayable()) return run
    const stored = run ? undefined : await this.#storage.getResponse(id)
    if (!run && (!stored || stored.tenant !== tenant)) return notFound('response', id)
    return invalidRequest(
      run || stored?.snapshot.background === true
        ? `The events of background response ${id} are no longer kept (they are kept for an hour after it ends, up to 32 MiB, by the gateway process that ran it): GET it without 'stream'.`
        : `'stream=true' replays a background response's events; ${id} ran in the foreground and is complete: GET it without 'stream'.`,
      'stream',
    )
  }

  /** Resolves when every running background response has ended, or after `timeoutMs`; true when they all did. */
  async drainBackground(timeoutMs: number): Promise<boolean> {
    return this.#background.drain(timeoutMs)
  }

  /**
   * `GET /v1/responses/{id}/input_items`: the response's own input items with their ids, newest first
   * by default (OpenAI's order), paged by `after` (an item id) and `limit`.
   */
  async listInputItems(id: string, options: ListOptions, tenant = ''): Promise<JsonObject | GatewayError> {
    const stored = await this.#storage.getResponse(id)
    if (!stored || stored.tenant !== tenant) return notFound('response', id)
    const items = options.order === 'asc' ? [...(stored.input ?? [])] : [...(stored.input ?? [])].reverse()
    const start = options.after === undefined ? 0 : items.findIndex((item) => item.id === options.after) + 1
    if (options.after !== undefined && start === 0) return notFound('item', options.after)
    const data = items.slice(start, start + options.limit)
    return {
      object: 'list',
      data,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
      has_more: start + options.limit < items.length,
    }
  }

  /** `DELETE /v1/responses/{id}` (a running background response is cancelled first). */
  async deleteResponse(id: string, tenant = ''): Promise<JsonObject | GatewayError> {
    const run = this.#background.get(id, tenant)
    if (run) {
      if (!run.finished) {
        run.controller.abort()
        await run.settled()
      }
      this.#background.delete(id)
      // A cancelled or failed run was never stored: it is gone now.
      if (!(await this.#storage.getResponse(id))) return { id, object: 'response', deleted: true }
    }
    if ((await this.#storage.getResponse(id))?.tenant !== tenant) return notFound('response', id)
    return (await this.#storage.deleteResponse(id))
      ? { id, object: 'response', deleted: true }
      : notFound('response', id)
  }

  /**
   * `POST /v1/responses/compact`: the history (rehydrated and/or given) summarized by the model into
   * one compaction item, after the user messages, as OpenAI's endpoint answers. Nothing is stored.
   */
  async compact(
    request: CompactRequest,
    signal: AbortSignal,
    tenant = '',
  ): Promise<JsonObject | GatewayError> {
    const rehydrated = await rehydrate(
      this.#storage,
      this.conversations,
      this.#config.limits,
      { previousResponseId: request.previousResponseId },
      tenant,
    )
    if ('status' in rehydrated) return rehydrated
    return compactHistory(this.#upstream, [...rehydrated.history, ...request.input], request, signal)
  }

  /** Readiness: the database answers and the upstream is reachable. */
  async ready(): Promise<{ storage: boolean; upstream: boolean }> {
    const storage = await this.#storage.ping().then(
      () => true,
      () => false,
    )
    return { storage, upstream: await this.#upstream.reachable(2000) }
  }

  /** Cancels the background responses still running, then closes the storage. */
  async close(): Promise<void> {
    await this.#background.cancelAll()
    await this.#storage.close()
  }
}
