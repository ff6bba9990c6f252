import type { EngineEvent, Usage } from '@z-engine/protocol'
import type { MessageEndEvent, ModelClient, ModelError, ModelRequest } from '../model/types.js'

/** How often coalesced text/thinking deltas are published (about 30 a second). */
export const DELTA_FLUSH_MS = 33

/** The outcome of streaming one request. */
export type RoundStream = { ok: true; end: MessageEndEvent } | { ok: false; error: ModelError; usage?: Usage }

/**
 * Streams one request into events: text and thinking deltas coalesced to a sane rate, `retrying`
 * announced (and the partial message reset), ending with the assembled message or a typed error.
 * Never throws.
 */
export async function streamRound(
  client: ModelClient,
  request: ModelRequest,
  emit: (event: EngineEvent) => Promise<void>,
  newPartId: () => string,
  signal: AbortSignal,
): Promise<RoundStream> {
  // Open parts by the adapter's block index, with text not yet published.
  const parts = new Map<number, { id: string; kind: 'text' | 'thinking'; pending: string }>()
  let lastFlush = 0

  const flush = async () => {
    lastFlush = Date.now()
    for (const part of parts.values()) {
      if (part.pending === '') continue
      const delta = part.pending
      part.pending = ''
      await emit(
        part.kind === 'text'
          ? { type: 'textDelta', id: part.id, delta }
          : { type: 'thinkingDelta', id: part.id, delta },
      )
    }
  }
  const open = async (index: number, kind: 'text' | 'thinking') => {
    const id = newPartId()
    parts.set(index, { id, kind, pending: '' })
    await emit(kind === 'text' ? { type: 'textStart', id } : { type: 'thinkingStart', id })
  }
  const close = async (index: number) => {
    const part = parts.get(index)
    if (!part) return
    await flush()
    parts.delete(index)
    await emit(part.kind === 'text' ? { type: 'textEnd', id: part.id } : { type: 'thinkingEnd', id: part.id })
  }
  const closeAll = async () => {
    for (const index of [...parts.keys()]) await close(index)
  }

  try {
    for await (const event of client.stream(request, signal)) {
      switch (event.type) {
        case 'text_start':
          await open(event.index, 'text')
          break
        case 'thinking_start':
          await open(event.index, 'thinking')
          break
        case 'text_delta':
        case 'thinking_delta': {
          const part = parts.get(event.index)
          if (!part) break
          part.pending += event.type === 'text_delta' ? event.text : event.thinking
          if (Date.now() - lastFlush >= DELTA_FLUSH_MS) await flush()
          break
        }
        case 'text_end':
        case 'thinking_end':
          await close(event.index)
          break
        case 'redacted_thinking':
        case 'tool_call_start':
        case 'tool_call_args_delta':
        case 'tool_call_end':
        case 'usage':
          break
        case 'retrying':
          // Whatever streamed before is void: close open parts so the UI can drop them.
          await closeAll()
          await emit({
            type: 'retrying',
            attempt: event.attempt,
            delayMs: event.delayMs,
            reason: event.reason,
          })
          break
        case 'message_end':
          await closeAll()
          return { ok: true, end: event }
        case 'error':
          await closeAll()
          return { ok: false, error: event.error }
        default: {
          const unreachable: never = event
          throw new Error(`unknown stream event ${JSON.stringify(unreachable)}`)
        }
      }
    }
  } catch (error) {
    await closeAll().catch(() => {})
    const message = error instanceof Error ? error.message : String(error)
    return {
      ok: false,
      error: signal.aborted
        ? { kind: 'aborted', message: 'The request was cancelled.' }
        : { kind: 'network', message: `The model stream failed: ${message}` },
    }
  }
  await closeAll()
  return {
    ok: false,
    error: signal.aborted
      ? { kind: 'aborted', message: 'The request was cancelled.' }
      : { kind: 'network', message: 'The model stream ended without a final message. Try again.' },
  }
}
