/**
 * A scripted response in the Gemini API's wire format: `:streamGenerateContent?alt=sse` frames (one
 * `GenerateContentResponse` per `data:` line, CRLF-delimited as Google's servers send them) or one
 * `:generateContent` JSON body. Like the public API, function calls carry no ids and the first call
 * of a response carries a thought signature (as Gemini 3 models send), so clients must return it.
 */
import type { StopReason } from '../../types.js'
import { type ResolvedResponse, splitText } from '../script.js'
import { type EncodeOptions, sseFrame } from './sse.js'

type Part = Record<string, unknown>

function finishReasonOf(reason: StopReason): string {
  switch (reason) {
    case 'end_turn':
    case 'tool_use':
    case 'stop_sequence':
      return 'STOP'
    case 'max_tokens':
      return 'MAX_TOKENS'
    case 'refusal':
      return 'SAFETY'
    case 'other':
      return 'OTHER'
    default: {
      const unreachable: never = reason
      return unreachable
    }
  }
}

/** Gemini counts cached tokens inside the prompt count. */
function usageOf(response: ResolvedResponse): object {
  const { usage } = response
  const prompt = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: usage.outputTokens,
    totalTokenCount: prompt + usage.outputTokens,
    ...(usage.cacheReadTokens > 0 ? { cachedContentTokenCount: usage.cacheReadTokens } : {}),
  }
}

/** The signature the scripted server puts on a response's first function call. */
export function scriptedCallSignature(number: number): string {
  return Buffer.from(`scripted-signature-${number}`).toString('base64')
}

/** The response's parts, each streamed as its own chunk (text and thoughts in pieces). */
function partsOf(response: ResolvedResponse, number: number, textSize: number): Part[][] {
  const chunks: Part[][] = []
  let signedCall = false
  for (const block of response.blocks) {
    switch (block.type) {
      case 'text':
        for (const piece of splitText(block.text, textSize)) chunks.push([{ text: piece }])
        break
      case 'thinking': {
        const pieces = splitText(block.thinking, textSize)
        pieces.forEach((piece, index) => {
          const part: Part = { text: piece, thought: true }
          if (index === pieces.length - 1) part.thoughtSignature = block.signature
          chunks.push([part])
        })
        break
      }
      case 'redacted_thinking':
        break
      case 'tool_use': {
        let args: unknown = {}
        try {
          args = JSON.parse(block.argsText)
        } catch {
          // Gemini never streams malformed arguments (it ends with MALFORMED_FUNCTION_CALL instead).
        }
        const part: Part = { functionCall: { name: block.name, args } }
        if (!signedCall) part.thoughtSignature = scriptedCallSignature(number)
        signedCall = true
        chunks.push([part])
        break
      }
      default: {
        const unreachable: never = block
        return unreachable
      }
    }
  }
  return chunks
}

/** The SSE frames of a streamed response; usage and the finish reason ride on the last chunk. */
export function geminiFrames(
  response: ResolvedResponse,
  id: string,
  number: number,
  options: EncodeOptions,
): string[] {
  const chunks = partsOf(response, number, options.textChunkSize ?? 16)
  if (chunks.length === 0) chunks.push([{ text: '' }])
  return chunks.map((parts, index) => {
    const last = index === chunks.length - 1
    const candidate: Record<string, unknown> = { content: { role: 'model', parts }, index: 0 }
    if (last) candidate.finishReason = finishReasonOf(response.stopReason)
    const body: Record<string, unknown> = {
      candidates: [candidate],
      modelVersion: options.model,
      responseId: id,
    }
    if (last) body.usageMetadata = usageOf(response)
    return sseFrame(undefined, body, '\r\n')
  })
}

/** The JSON body of a non-streamed `:generateContent` response. */
export function geminiJson(
  response: ResolvedResponse,
  id: string,
  number: number,
  options: EncodeOptions,
): object {
  const parts = partsOf(response, number, Number.MAX_SAFE_INTEGER).flat()
  return {
    candidates: [
      {
        content: { role: 'model', parts },
        finishReason: finishReasonOf(response.stopReason),
        index: 0,
      },
    ],
    usageMetadata: usageOf(response),
    modelVersion: options.model,
    responseId: id,
  }
}

/** Google's error body (`google.rpc.Status` in JSON). */
export function geminiError(code: number, status: string, message: string, details?: object[]): object {
  return { error: { code, message, status, ...(details !== undefined ? { details } : {}) } }
}
