import type { ToolOutput, ToolResult } from './tool-result.js'

/** A successful result holding one text block. */
export function textResult(text: string, extra: Omit<ToolOutput, 'content'> = {}): ToolResult {
  return { ok: true, output: { content: [{ type: 'text', text }], ...extra } }
}

/** A failed result; `message` should tell the model what to do next. */
export function errorResult(code: string, message: string): ToolResult {
  return { ok: false, error: { code, message } }
}

/** The message of an unknown thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
