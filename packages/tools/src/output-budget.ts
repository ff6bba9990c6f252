import type { ToolCtx } from './ctx.js'
import type { OutputKind } from './output-kind.js'

/** A shortened text. */
export interface ShapedOutput {
  text: string
  shortened: boolean
  /** Lines left out. */
  omittedLines: number
}

/**
 * Head share of the byte ceiling per kind (the rest goes to the tail). The ceiling is the
 * authoritative limit beneath the semantic budget and keeps whole lines, never half a match:
 * `log` and `test` keep a short head and a long tail, since how a run ended matters most;
 * `search`, `file` and `diff` read from the top; `text` and `conclusion` keep half of each.
 */
const HEAD_SHARE: Record<OutputKind, number> = {
  log: 0.3,
  test: 0.3,
  search: 1,
  file: 1,
  diff: 1,
  text: 0.5,
  conclusion: 0.5,
}

/** Fits `text` into `maxChars` (plus a marker line) keeping whole lines. */
export function shapeOutput(text: string, kind: OutputKind, maxChars: number): ShapedOutput {
  if (text.length <= maxChars) return { text, shortened: false, omittedLines: 0 }
  const lines = text.split('\n')
  const headBudget = Math.floor(maxChars * HEAD_SHARE[kind])
  const head: string[] = []
  let used = 0
  for (const line of lines) {
    if (used + line.length + 1 > headBudget) break
    head.push(line)
    used += line.length + 1
  }
  // Search results with context come in `--`-separated groups: end at a group boundary when that
  // keeps at least half of what fits, so no match is shown without its context.
  if (kind === 'search' && head.length < lines.length) {
    const boundary = head.lastIndexOf('--')
    if (boundary >= head.length / 2) {
      for (const dropped of head.splice(boundary)) used -= dropped.length + 1
    }
  }
  const tail: string[] = []
  let tailUsed = 0
  const tailBudget = maxChars - used
  if (HEAD_SHARE[kind] < 1) {
    for (let index = lines.length - 1; index >= head.length; index -= 1) {
      const line = lines[index]!
      if (tailUsed + line.length + 1 > tailBudget) break
      tail.unshift(line)
      tailUsed += line.length + 1
    }
  }
  // One giant line (minified code, a base64 blob): cut it by characters rather than drop it all.
  if (head.length === 0 && tail.length === 0) {
    const cut = cutChars(text, maxChars)
    return {
      text: `${cut}\n${marker(kind, lines.length - 1, text.length - cut.length)}`,
      shortened: true,
      omittedLines: 0,
    }
  }
  const omittedLines = lines.length - head.length - tail.length
  const parts = [...head, marker(kind, omittedLines, 0), ...tail]
  return { text: parts.join('\n'), shortened: true, omittedLines }
}

function marker(kind: OutputKind, lines: number, chars: number): string {
  const what = chars > 0 ? `${chars} characters` : `${lines} lines`
  switch (kind) {
    case 'search':
      return `[... ${what} of further results omitted ...]`
    case 'file':
    case 'diff':
    case 'log':
    case 'test':
    case 'text':
    case 'conclusion':
      return `[... ${what} omitted ...]`
    default: {
      const never: never = kind
      return never
    }
  }
}

/** The first `max` UTF-16 units of `text`, without splitting a surrogate pair. */
function cutChars(text: string, max: number): string {
  let end = Math.min(max, text.length)
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end -= 1
  return text.slice(0, end)
}

/**
 * Shapes a result: the semantic output budget of its kind first (when the engine supplies one),
 * then the byte ceiling of `ctx.limits.maxResultChars`. When either left anything out, the full
 * text is spilled to an artifact and the result says where it is.
 */
export async function budgetOutput(
  ctx: ToolCtx,
  text: string,
  kind: OutputKind,
  hint: string,
): Promise<string> {
  const budgeted = ctx.outputBudget?.(text, kind) ?? { text, shortened: false }
  const shaped = shapeOutput(budgeted.text, kind, ctx.limits.maxResultChars)
  if (!budgeted.shortened && !shaped.shortened) return text
  try {
    const path = await ctx.spill(text, hint)
    return `${shaped.text}\n(Output shortened: the full ${text.length} characters are saved at ${path}; read parts of it with Read offset/limit or search it with Grep.)`
  } catch {
    return `${shaped.text}\n(Output shortened to fit the result limit.)`
  }
}
