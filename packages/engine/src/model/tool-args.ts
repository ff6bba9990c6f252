/** Parsing a tool call's streamed argument text. Never throws: the model's JSON is user input. */

/** The parsed arguments, or what was wrong with them. Empty text means "no arguments" (`{}`). */
export type ToolArgsResult = { ok: true; input: Record<string, unknown> } | { ok: false; message: string }

/** Parses tool-call arguments; they must be one JSON object (or empty). */
export function parseToolArgs(argsText: string): ToolArgsResult {
  if (argsText.trim() === '') return { ok: true, input: {} }
  let value: unknown
  try {
    value = JSON.parse(argsText)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return {
      ok: false,
      message: `The tool call's arguments are not valid JSON (${reason}). Send the arguments as one JSON object.`,
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      message: `The tool call's arguments must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}. Send the arguments as one JSON object.`,
    }
  }
  return { ok: true, input: value as Record<string, unknown> }
}
