import type { RedirectOp } from './types.js'

/** Characters that end a word. */
export const META = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>'])
export const REDIRECT_OPS: readonly RedirectOp[] = [
  '&>>',
  '&>',
  '<<<',
  '<<-',
  '<<',
  '<>',
  '<&',
  '<',
  '>>',
  '>|',
  '>&',
  '>',
]
/** Reserved words that only open or close structure; the command that follows is still collected. */
export const PASS_KEYWORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  '!',
  '{',
  '}',
])
export const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*\+?=/
/** `[abc]` in a word is a glob; a lone `[` (the test command) is not. */
export const BRACKET_GLOB = /^\[[^\s;&|()<>]*\]/
/** `{a,b}` or `{1..3}`: brace expansion makes a word name several things. */
export const BRACE_EXPANSION = /^\{[^\s;&|()<>{}]*(,|\.\.)[^\s;&|()<>{}]*\}/

/** Index of the bracket closing the one at `open`, skipping quotes; -1 when there is none. */
export function matchingClose(src: string, open: number, left: string, right: string): number {
  let level = 0
  for (let index = open; index < src.length; index++) {
    const c = src[index]
    if (c === '\\') index++
    else if (c === "'") {
      const end = src.indexOf("'", index + 1)
      if (end < 0) return -1
      index = end
    } else if (c === left) level++
    else if (c === right) {
      level--
      if (level === 0) return index
    }
  }
  return -1
}
