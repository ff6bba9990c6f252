/**
 * The script format shared by {@link ScriptedClient} and the scripted HTTP server, and read by the
 * CLI's `scripted:<file>` model ref.
 *
 * A script file is JSON (an array of steps) or JSONL (one step per line; blank lines and lines
 * starting with `//` are skipped). Each step answers one model request, in order:
 *
 * ```jsonl
 * {"blocks": [{"type": "thinking", "thinking": "Look first."}, {"type": "tool_use", "name": "Read", "input": {"path": "a.ts"}}]}
 * {"blocks": [{"type": "text", "text": "Done."}], "usage": {"inputTokens": 1200, "outputTokens": 40}}
 * {"error": {"kind": "overloaded", "message": "try later"}}
 * ```
 *
 * Blocks: `text {text}`, `thinking {thinking, signature?, encrypted?}`, `redacted_thinking {data}`,
 * `tool_use {name, input, id?}` (`input` may be a string to send raw, even malformed, arguments).
 * `stopReason` defaults to `tool_use` when a tool_use block is present, else `end_turn`.
 * `{"error": …}` steps make the scripted client end with that error; the server takes `fault` steps.
 */
import type { Usage } from '@z-engine/protocol'
import type { ModelError, ModelErrorKind, StopReason } from '../types.js'

/** One block of a scripted assistant response. */
export type ScriptBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature?: string; encrypted?: { id: string; content: string } }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; name: string; input: Record<string, unknown> | string; id?: string }

/** A scripted assistant response. */
export interface ScriptedResponse {
  blocks: ScriptBlock[]
  stopReason?: StopReason
  usage?: Partial<Usage>
}

/** A fault the scripted server injects instead of (or in the middle of) a response. */
export type ScriptFault =
  /** 429 with `retry-after` (seconds) in the provider's wording. */
  | { type: 'rate_limit'; retryAfterSeconds?: number; retryAfterMs?: number }
  /** 529 overloaded (Anthropic's status; the OpenAI formats get the same status). */
  | { type: 'overloaded' }
  /** 500 internal server error. */
  | { type: 'server_error' }
  /** 400 saying the prompt is too long, in the provider's own wording. */
  | { type: 'context_overflow' }
  /** 401 invalid key. */
  | { type: 'authentication' }
  /** Any status and JSON body. */
  | { type: 'status'; status: number; body: unknown; headers?: Record<string, string> }
  /** Streams the response's first `afterFrames` SSE frames, then destroys the socket. */
  | { type: 'drop'; response: ScriptedResponse; afterFrames: number }

/** One step of a script. */
export type ScriptStep = ScriptedResponse | { error: ModelError } | { fault: ScriptFault }

/** The result of parsing a script file. */
export type ParseScriptResult = { ok: true; steps: ScriptStep[] } | { ok: false; error: string }

const ERROR_KINDS: readonly ModelErrorKind[] = [
  'context_overflow',
  'rate_limited',
  'overloaded',
  'authentication',
  'permission',
  'invalid_request',
  'not_found',
  'network',
  'server',
  'aborted',
]

/** Parses a script file (JSON array or JSONL). Never throws; errors name the step and what to fix. */
export function parseScript(text: string): ParseScriptResult {
  const trimmed = text.trim()
  let raw: unknown[]
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed)
      if (!Array.isArray(parsed)) return { ok: false, error: 'A JSON script must be an array of steps.' }
      raw = parsed
    } catch (error) {
      return { ok: false, error: `The script is not valid JSON: ${(error as Error).message}` }
    }
  } else {
    raw = []
    const lines = text.split('\n')
    for (let number = 1; number <= lines.length; number++) {
      const line = (lines[number - 1] ?? '').trim()
      if (line === '' || line.startsWith('//')) continue
      try {
        raw.push(JSON.parse(line))
      } catch (error) {
        return { ok: false, error: `Script line ${number} is not valid JSON: ${(error as Error).message}` }
      }
    }
  }
  const steps: ScriptStep[] = []
  for (const [index, value] of raw.entries()) {
    const checked = checkStep(value)
    if (typeof checked === 'string') return { ok: false, error: `Script step ${index + 1}: ${checked}` }
    steps.push(checked)
  }
  return { ok: true, steps }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function checkStep(value: unknown): ScriptStep | string {
  if (!isRecord(value)) return 'expected an object with "blocks", "error" or "fault".'
  if ('error' in value) {
    const error = value.error
    if (!isRecord(error) || !ERROR_KINDS.includes(error.kind as ModelErrorKind)) {
      return `"error" needs a "kind", one of ${ERROR_KINDS.join(', ')}.`
    }
    return {
      error: {
        kind: error.kind as ModelErrorKind,
        message: typeof error.message === 'string' ? error.message : String(error.kind),
      },
    }
  }
  if ('fault' in value) {
    if (!isRecord(value.fault) || typeof value.fault.type !== 'string') return '"fault" needs a "type".'
    return { fault: value.fault as ScriptFault }
  }
  if (!Array.isArray(value.blocks))
    return 'expected "blocks": an array of text, thinking, redacted_thinking or tool_use blocks.'
  for (const [index, block] of value.blocks.entries()) {
    const problem = checkBlock(block)
    if (problem) return `block ${index + 1}: ${problem}`
  }
  return value as unknown as ScriptedResponse
}

function checkBlock(block: unknown): string | undefined {
  if (!isRecord(block)) return 'expected an object.'
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? undefined : 'a text block needs "text".'
    case 'thinking':
      return typeof block.thinking === 'string' ? undefined : 'a thinking block needs "thinking".'
    case 'redacted_thinking':
      return typeof block.data === 'string' ? undefined : 'a redacted_thinking block needs "data".'
    case 'tool_use':
      if (typeof block.name !== 'string') return 'a tool_use block needs "name".'
      return isRecord(block.input) || typeof block.input === 'string'
        ? undefined
        : 'a tool_use block needs "input" (an object, or a string of raw arguments).'
    default:
      return `unknown block type ${JSON.stringify(block.type)}; use text, thinking, redacted_thinking or tool_use.`
  }
}

/** A response block with defaults filled in: tool ids assigned, arguments as text. */
export type ResolvedBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string; encrypted: { id: string; content: string } }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; argsText: string }

/** A response ready to encode. */
export interface ResolvedResponse {
  blocks: ResolvedBlock[]
  stopReason: StopReason
  usage: Usage
}

/**
 * Fills in a response's defaults. Tool ids default to `toolu_<step>_<n>` (every format accepts any
 * string); thinking gets a deterministic signature and encrypted payload when the script has none,
 * as real providers always send them.
 */
export function resolveResponse(response: ScriptedResponse, step: number): ResolvedResponse {
  let toolNumber = 0
  const blocks = response.blocks.map((block, index): ResolvedBlock => {
    switch (block.type) {
      case 'text':
      case 'redacted_thinking':
        return block
      case 'thinking':
        return {
          type: 'thinking',
          thinking: block.thinking,
          signature:
            block.signature ??
            `sig_${step}_${index}_${Buffer.from(block.thinking).toString('base64').slice(0, 16)}`,
          encrypted: block.encrypted ?? { id: `rs_${step}_${index}`, content: `enc_${step}_${index}` },
        }
      case 'tool_use':
        toolNumber++
        return {
          type: 'tool_use',
          id: block.id ?? `toolu_${step}_${toolNumber}`,
          name: block.name,
          argsText: typeof block.input === 'string' ? block.input : JSON.stringify(block.input),
        }
      default: {
        const unreachable: never = block
        return unreachable
      }
    }
  })
  const hasTool = blocks.some((block) => block.type === 'tool_use')
  return {
    blocks,
    stopReason: response.stopReason ?? (hasTool ? 'tool_use' : 'end_turn'),
    usage: {
      inputTokens: response.usage?.inputTokens ?? 10,
      outputTokens: response.usage?.outputTokens ?? 5,
      cacheReadTokens: response.usage?.cacheReadTokens ?? 0,
      cacheWriteTokens: response.usage?.cacheWriteTokens ?? 0,
    },
  }
}

/** Splits text into pieces of at most `size` characters (at least one piece, possibly empty). */
export function splitText(text: string, size: number): string[] {
  if (text === '' || size <= 0) return [text]
  const pieces: string[] = []
  for (let offset = 0; offset < text.length; offset += size) pieces.push(text.slice(offset, offset + size))
  return pieces
}
