/**
 * The executor: the only door into storage. HTTP handlers call these methods; each rehydrates,
 * runs, persists (one turn, atomically, after the stream is accumulated) and returns public shapes.
 */
import type { GatewayConfig } from '../config.js'
import type { Metrics } from '../http/metrics.js'
import type { NewItem, Storage, StoredConversation, StoredItem, TurnRecord } from '../storage/types.js'
import { isStorageUnavailable } from '../storage/unavailable.js'
import type { GatewayToolset } from '../tools/gateway-tools.js'
import { gatewayRuns } from '../tools/ownership.js'
import type { Upstream } from '../upstream/upstream.js'
import { type GatewayError, invalidRequest, notFound } from '../wire/errors.js'
import { newId } from '../wire/ids.js'
import { isObject, type JsonObject } from '../wire/json.js'
import type { CompactRequest, CreateResponseRequest } from '../wire/request.js'
import { BackgroundRun, BackgroundRuns } from './background.js'
import { checkPendingCalls, encodeCompaction, modelInput, prefixFor, toInputItem } from './items.js'
import { responseSkeleton, runTurn, type TurnItem, type TurnSink } from './turn.js'

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

/** Options of `listItems`. */
export interface ListOptions {
  limit: number
  order: 'asc' | 'desc'
  after?: string
}

/** A request checked and rehydrated, its gateway tools built. */
interface Prepared {
  rehydrated: Rehydrated
  history: JsonObject[]
  toolset: GatewayToolset | undefined
}

interface Rehydrated {
  history: JsonObject[]
  expect: TurnRecord['expect']
  /** Set when the parent is a transient (store: false) response retained only by a session. */
  transient?: boolean
}

/**
 * Response state a long-lived connection retains without storage (the WebSocket transport): a
 * continuation of a `store: false` response on the same connection rehydrates from here.
 */
export interface ResponseSession {
  /** The whole canonical window ending at a retained response (raw items, oldest first). */
  window(id: string): JsonObject[] | undefined
  /** Keeps a finished response's window and the request it ran with. */
  retain(id: string, window: JsonObject[], request: CreateResponseRequest, response: JsonObject): void
}

function now(): number {
  return Math.floor(Date.now() / 1000)
}

function conflict(message: string): GatewayError {
  return { status: 409, type: 'conflict_error', message, code: 'conflict' }
}

function publicConversation(conversation: StoredConversation): JsonObject {
  return {
    id: conversation.id,
    object: 'conversation',
    created_at: conversation.createdAt,
    metadata: conversation.metadata,
  }
}

function publicItem(stored: StoredItem): JsonObject {
  return { ...stored.item, id: stored.id }
}

/** Gives an item an id (clients may send items without one). */
function withId(item: JsonObject): JsonObject {
  return typeof item.id === 'string' && item.id !== ''
    ? item
    : { ...item, id: newId(prefixFor(String(item.type))) }
}

function newItems(entries: TurnItem[]): NewItem[] {
  return entries.map(({ item, visibility }) => {
    const identified = withId(item)
    return { id: String(identified.id), visibility, item: identified }
  })
}

/** The gateway's request lifecycle and storage operations. */
export class Executor {
  readonly #storage: Storage
  readonly #upstream: Upstream
  readonly #config: GatewayConfig
  readonly #toolsets: ToolsetFactory
  readonly #metrics: Metrics | undefined
  readonly #background = new BackgroundRuns()

  constructor(
    storage: Storage,
    upstream: Upstream,
    config: GatewayConfig,
    toolsets: ToolsetFactory,
    metrics?: Metrics,
  ) {
    this.#storage = storage
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

  /** A live conversation of this tenant (another tenant's is as absent as a missing one). */
  async #ownConversation(id: string, tenant: string): Promise<StoredConversation | undefined> {
    const conversation = await this.#storage.getConversation(id)
    return conversation?.tenant === tenant ? conversation : undefined
  }

  async #rehydrate(
    request: {
      previousResponseId: string | null
      conversationId?: string | null
    },
    tenant: string,
    session?: ResponseSession,
  ): Promise<Rehydrated | GatewayError> {
    if (request.previousResponseId !== null) {
      const id = request.previousResponseId
      // A transient parent retained by this connection (a stored one is read from storage as usual).
      const retained = session?.window(id)
      if (retained && !(await this.#storage.getResponse(id)))
        return { history: retained, expect: { kind: 'none' }, transient: true }
      const chain = await this.#storage.responseChain(id, this.#config.limits.maxChainDepth)
      if (chain && chain.at(-1)?.tenant !== tenant) return notFound('response', id)
      if (!chain) {
        const head = await this.#storage.getResponse(id)
        return head && head.tenant === tenant
          ? conflict(
              `The history of ${id} is longer than ${this.#config.limits.maxChainDepth} responses (maxChainDepth); compact it or start a conversation.`,
            )
          : notFound('response', id)
      }
      const head = chain[chain.length - 1]
      return {
        history: chain.flatMap((response) => response.history),
        expect: { kind: 'response', id, version: head?.version ?? 0 },
      }
    }
    if (request.conversationId) {
      const id = request.conversationId
      const conversation = await this.#ownConversation(id, tenant)
      if (!conversation) return notFound('conversation', id)
      const page = await this.#storage.listItems(id, {
        limit: this.#config.limits.maxConversationItems,
        order: 'asc',
        includeModelItems: true,
      })
      if (!page) return notFound('conversation', id)
      if (page.hasMore)
        return invalidRequest(
          `Conversation ${id} holds more than ${this.#config.limits.maxConversationItems} items (maxConversationItems); compact it.`,
          'conversation',
        )
      return {
        history: page.items.filter((item) => item.visibility !== 'public').map((item) => item.item),
        expect: { kind: 'conversation', id, version: conversation.version },
      }
    }
    return { history: [], expect: { kind: 'none' } }
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
    const rehydrated = await this.#rehydrate(request, tenant, session)
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
        const persisted = await this.#persist(
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

  async #persist(
    request: CreateResponseRequest,
    responseId: string,
    createdAt: number,
    response: JsonObject,
    items: TurnItem[],
    expect: TurnRecord['expect'],
    tenant: string,
    transientPrefix?: JsonObject[],
  ): Promise<GatewayError | undefined> {
    const identified = newItems(items)
    const record: TurnRecord = {
      response: {
        id: responseId,
        // A stored child of a transient parent holds the whole window and no link to a row that does not exist.
        previousResponseId: transientPrefix ? null : request.previousResponseId,
        conversationId: request.conversationId,
        createdAt,
        status: String(response.status),
        snapshot: response,
        history: [
          ...(transientPrefix ?? []),
          ...identified.filter((entry) => entry.visibility !== 'public').map((entry) => entry.item),
        ],
        // The turn's items start with the request's input, in order.
        input: identified.slice(0, request.input.length).map((entry) => entry.item),
        tenant,
      },
      expect,
      conversationItems: expect.kind === 'conversation' ? identified : [],
    }
    const result = await this.#storage.persistTurn(record)
    if (result.ok) {
      this.#metrics?.stored(result.storedBytes)
      return undefined
    }
    if (result.reason === 'missing') return notFound('conversation', request.conversationId ?? '')
    return conflict(
      expect.kind === 'conversation'
        ? `Conversation ${expect.id} changed while this response ran (another turn or an item edit was stored first); nothing was stored — retry.`
        : `Another continuation of ${request.previousResponseId} was stored while this one ran; nothing was stored — retry from the latest response.`,
    )
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
    const rehydrated = await this.#rehydrate({ previousResponseId: request.previousResponseId }, tenant)
    if ('status' in rehydrated) return rehydrated
    const items = [...rehydrated.history, ...request.input]
    const visible = modelInput(
      items.flatMap((item) => {
        const converted = toInputItem(item)
        return converted ? [converted] : []
      }),
    )
    if (!Array.isArray(visible)) return visible
    const instructions = [
      'Summarize the conversation so far for your own later use: the goal, decisions, facts learned, tool results that matter, and what remains to do. Be complete but brief.',
      request.instructions ?? '',
    ]
      .filter((line) => line !== '')
      .join('\n\n')
    const reply = await this.#upstream.createResponse(
      { model: request.model, input: visible, instructions, store: false, stream: false },
      signal,
    )
    if (reply.kind === 'error') return reply.error
    if (reply.kind !== 'json' || !isObject(reply.body) || !Array.isArray(reply.body.output))
      return {
        status: 502,
        type: 'upstream_error',
        message: 'The upstream summary has no output.',
        code: 'upstream_protocol',
      }
    const summary = reply.body.output
      .filter((item) => isObject(item) && item.type === 'message' && Array.isArray(item.content))
      .flatMap((item) => (item as { content: unknown[] }).content)
      .filter((part): part is JsonObject => isObject(part) && part.type === 'output_text')
      .map((part) => String(part.text ?? ''))
      .join('')
    if (summary.trim() === '')
      return {
        status: 502,
        type: 'upstream_error',
        message: 'The upstream model returned an empty summary.',
        code: 'empty_summary',
      }
    const users = items.filter((item) => item.type === 'message' && item.role === 'user').map(withId)
    return {
      id: newId('resp'),
      object: 'response.compaction',
      created_at: now(),
      output: [
        ...users,
        { id: newId('cmp'), type: 'compaction', encrypted_content: encodeCompaction(summary) },
      ],
      usage: isObject(reply.body.usage)
        ? reply.body.usage
        : {
            input_tokens: 0,
            output_tokens: 0,
            total_tokens: 0,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens_details: { reasoning_tokens: 0 },
          },
    }
  }

  /** `POST /v1/conversations`. */
  async createConversation(
    items: JsonObject[],
    metadata: Record<string, string>,
    tenant = '',
  ): Promise<JsonObject> {
    const conversation = await this.#storage.createConversation(
      { id: newId('conv'), createdAt: now(), metadata, tenant },
      newItems(items.map((item) => ({ item, visibility: 'both' }))),
    )
    return publicConversation(conversation)
  }

  /** `GET /v1/conversations/{id}`. */
  async getConversation(id: string, tenant = ''): Promise<JsonObject | GatewayError> {
    const conversation = await this.#ownConversation(id, tenant)
    return conversation ? publicConversation(conversation) : notFound('conversation', id)
  }

  /** `POST /v1/conversations/{id}`. */
  async updateConversation(
    id: string,
    metadata: Record<string, string>,
    tenant = '',
  ): Promise<JsonObject | GatewayError> {
    if (!(await this.#ownConversation(id, tenant))) return notFound('conversation', id)
    const conversation = await this.#storage.updateConversation(id, metadata)
    return conversation ? publicConversation(conversation) : notFound('conversation', id)
  }

  /** `DELETE /v1/conversations/{id}`. */
  async deleteConversation(id: string, tenant = ''): Promise<JsonObject | GatewayError> {
    if (!(await this.#ownConversation(id, tenant))) return notFound('conversation', id)
    return (await this.#storage.deleteConversation(id))
      ? { id, object: 'conversation.deleted', deleted: true }
      : notFound('conversation', id)
  }

  /** `POST /v1/conversations/{id}/items`. */
  async addItems(id: string, items: JsonObject[], tenant = ''): Promise<JsonObject | GatewayError> {
    if (!(await this.#ownConversation(id, tenant))) return notFound('conversation', id)
    const added = await this.#storage.addItems(
      id,
      newItems(items.map((item) => ({ item, visibility: 'both' }))),
      now(),
    )
    if (!added) return notFound('conversation', id)
    const data = added.map(publicItem)
    return {
      object: 'list',
      data,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
      has_more: false,
    }
  }

  /** `GET /v1/conversations/{id}/items`. */
  async listItems(id: string, options: ListOptions, tenant = ''): Promise<JsonObject | GatewayError> {
    if (!(await this.#ownConversation(id, tenant))) return notFound('conversation', id)
    const page = await this.#storage.listItems(id, options)
    if (!page) return notFound('conversation', id)
    const data = page.items.map(publicItem)
    return {
      object: 'list',
      data,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
      has_more: page.hasMore,
    }
  }

  /** `GET /v1/conversations/{id}/items/{item_id}`. */
  async getItem(id: string, itemId: string, tenant = ''): Promise<JsonObject | GatewayError> {
    if (!(await this.#ownConversation(id, tenant))) return notFound('conversation', id)
    const item = await this.#storage.getItem(id, itemId)
    return item ? publicItem(item) : notFound('item', itemId)
  }

  /** `DELETE /v1/conversations/{id}/items/{item_id}`: answers with the conversation, as OpenAI does. */
  async deleteItem(id: string, itemId: string, tenant = ''): Promise<JsonObject | GatewayError> {
    const conversation = await this.#ownConversation(id, tenant)
    if (!conversation) return notFound('conversation', id)
    if (!(await this.#storage.deleteItem(id, itemId))) return notFound('item', itemId)
    return publicConversation(conversation)
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
