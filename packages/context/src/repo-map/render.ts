import { DEFAULT_REPO_MAP_CHARS } from '../limits.js'
import type { FileOutline } from './types.js'

const OPEN =
  '<repository-map>\nOutlines of source files in this project (definitions only, bodies left out), most relevant first.\n'
const CLOSE = '</repository-map>'

/**
 * Renders ranked outlines within `maxChars` (`context.repo_map_chars`, default 6,000), wrapper
 * included. Files are added whole in rank order; the first file that does not fit is cut to the lines
 * that do, and rendering stops there, so the map never skips ahead of a better-ranked file. Files
 * without definitions are left out. Returns '' when nothing fits.
 */
export function renderRepoMap(
  ranked: readonly FileOutline[],
  maxChars: number = DEFAULT_REPO_MAP_CHARS,
): string {
  const budget = maxChars - OPEN.length - CLOSE.length - 1
  if (budget <= 0) return ''
  const blocks: string[] = []
  let used = 0
  for (const file of ranked) {
    if (file.definitions.length === 0) continue
    const lines = [`${file.path}:`]
    for (const definition of file.definitions)
      lines.push(`${'  '.repeat(definition.depth + 1)}${definition.signature}`)
    const block = `\n${lines.join('\n')}\n`
    if (used + block.length <= budget) {
      blocks.push(block)
      used += block.length
      continue
    }
    // Cut this file to what fits (its path and at least one definition), then stop.
    let partial = `\n${lines[0]}\n`
    for (const line of lines.slice(1)) {
      if (used + partial.length + line.length + 1 > budget) break
      partial += `${line}\n`
    }
    if (partial.split('\n').length > 3) blocks.push(partial)
    break
  }
  if (blocks.length === 0) return ''
  return `${OPEN}${blocks.join('')}${CLOSE}`
}
