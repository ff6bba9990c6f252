import { diffCounts } from './diff-lines.js'
import type { ToolCard } from './view-model.js'

/**
 * The change an applied file edit made, rebuilt from its input for a resumed chat (the live diff
 * is not journaled): each replaced text as `-` lines and its replacement as `+` lines, the lines
 * they share kept as context. A Write shows the text it wrote (what it replaced is not known).
 */
export function replayedChange(name: string, input: Record<string, unknown>): ToolCard['change'] {
  const path = input.file_path
  if (typeof path !== 'string' || path === '') return undefined
  const pairs = replacedTexts(name, input)
  if (pairs === undefined || pairs.length === 0) return undefined
  const body = pairs.flatMap(([before, after]) => lineChange(before, after))
  return { path, body: body.join('\n'), ...diffCounts(body) }
}

/** The (old, new) texts an edit call replaced, or undefined for a tool that changes no file text. */
function replacedTexts(name: string, input: Record<string, unknown>): Array<[string, string]> | undefined {
  switch (name) {
    case 'Edit':
      return typeof input.old_string === 'string' && typeof input.new_string === 'string'
        ? [[input.old_string, input.new_string]]
        : undefined
    case 'MultiEdit':
      return Array.isArray(input.edits)
        ? input.edits.flatMap((edit: unknown) => {
            const { old_string: before, new_string: after } = (edit ?? {}) as Record<string, unknown>
            return typeof before === 'string' && typeof after === 'string'
              ? [[before, after] as [string, string]]
              : []
          })
        : undefined
    case 'Write':
      return typeof input.content === 'string' ? [['', input.content]] : undefined
    default:
      return undefined
  }
}

/** One replacement as diff lines: the lines both sides share at the start and end stay context. */
function lineChange(before: string, after: string): string[] {
  const old = before === '' ? [] : before.replace(/\n$/, '').split('\n')
  const next = after === '' ? [] : after.replace(/\n$/, '').split('\n')
  let head = 0
  while (head < old.length && head < next.length && old[head] === next[head]) head++
  let tail = 0
  while (
    tail < old.length - head &&
    tail < next.length - head &&
    old[old.length - 1 - tail] === next[next.length - 1 - tail]
  )
    tail++
  return [
    ...old.slice(0, head).map((line) => ` ${line}`),
    ...old.slice(head, old.length - tail).map((line) => `-${line}`),
    ...next.slice(head, next.length - tail).map((line) => `+${line}`),
    ...old.slice(old.length - tail).map((line) => ` ${line}`),
  ]
}
