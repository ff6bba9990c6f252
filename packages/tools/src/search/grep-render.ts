import type { GrepFileResult } from './grep-types.js'

/** Characters of a printed line before it is cut (minified files would flood the result). */
export const MAX_LINE_CHARS = 500

/** How to print results. */
export interface RenderOptions {
  mode: 'content' | 'files_with_matches' | 'count'
  lineNumbers: boolean
  /** Context was requested: groups are separated by `--` like ripgrep does. */
  context: boolean
}

/**
 * Prints results as entries (one per line of output): `path:line:text` for matches and
 * `path-line-text` for context in content mode, `path:count` in count mode, `path` otherwise.
 */
export function renderEntries(files: GrepFileResult[], options: RenderOptions): string[] {
  const entries: string[] = []
  for (const file of files) {
    switch (options.mode) {
      case 'files_with_matches':
        entries.push(file.path)
        break
      case 'count':
        entries.push(`${file.path}:${file.count}`)
        break
      case 'content': {
        let previous: number | undefined
        for (const line of file.lines) {
          const gap = previous === undefined ? entries.length > 0 : line.number !== previous + 1
          if (gap && options.context) entries.push('--')
          const separator = line.match ? ':' : '-'
          const number = options.lineNumbers ? `${line.number}${separator}` : ''
          entries.push(`${file.path}${separator}${number}${cut(line.text.replace(/\r$/, ''))}`)
          previous = line.number
        }
        break
      }
      default: {
        const never: never = options.mode
        return never
      }
    }
  }
  return entries
}

function cut(text: string): string {
  if (text.length <= MAX_LINE_CHARS) return text
  return `${text.slice(0, MAX_LINE_CHARS)} [... ${text.length - MAX_LINE_CHARS} more characters]`
}
