import { readFileSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { decodeText } from '../text-file.js'
import { FILE_TYPES } from './file-types.js'
import { byPath } from './grep-ripgrep.js'
import type { GrepFileResult, GrepLine, GrepOutcome, GrepQuery } from './grep-types.js'
import { compileOverrides, compileTypes } from './overrides.js'
import { walkFiles } from './walk.js'

/** Files read between two yields to the event loop. */
const YIELD_EVERY = 256

/**
 * Compiles a ripgrep pattern as JavaScript RegExps. Most syntax is shared; the differences that
 * matter are rewritten outside character classes: ripgrep's `.` matches `\r` (JavaScript's does
 * not), and its `^`/`$` see only `\n` as a line end (JavaScript's `m` flag also sees `\r`). A
 * leading `(?i)` becomes the `i` flag. `line` tests one line; `whole` runs over a whole file (the
 * multiline search, and a prefilter that may say yes too often but never too rarely).
 */
export function compilePattern(
  pattern: string,
  query: Pick<GrepQuery, 'caseInsensitive' | 'multiline'>,
): { ok: true; line: RegExp; whole: RegExp } | { ok: false; message: string } {
  let source = pattern
  let insensitive = query.caseInsensitive
  if (source.startsWith('(?i)')) {
    source = source.slice(4)
    insensitive = true
  }
  if (!query.multiline && /(^|[^\\])(\\\\)*\\n/.test(source)) {
    return { ok: false, message: 'the literal "\\n" is not allowed in a regex unless multiline is true' }
  }
  const flags = `${insensitive ? 'i' : ''}${query.multiline ? 's' : ''}`
  try {
    return {
      ok: true,
      line: new RegExp(rewrite(source, { anchors: false, dot: !query.multiline }), flags),
      whole: new RegExp(rewrite(source, { anchors: true, dot: !query.multiline }), `${flags}g`),
    }
  } catch (error) {
    return { ok: false, message: `regex parse error: ${(error as Error).message}` }
  }
}

/** Rewrites `.` (to `[^\n]`) and, for whole-file matching, `^`/`$` (to `\n`-only line anchors). */
function rewrite(source: string, options: { anchors: boolean; dot: boolean }): string {
  let out = ''
  let inClass = false
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index]!
    if (char === '\\') {
      out += char + (source[index + 1] ?? '')
      index += 1
      continue
    }
    if (inClass) {
      if (char === ']') inClass = false
      out += char
      continue
    }
    if (char === '[') {
      inClass = true
      out += char
      // A leading `]` or `^]` is a literal in the class.
      if (source[index + 1] === '^') out += source[++index]
      if (source[index + 1] === ']') out += source[++index]
      continue
    }
    if (char === '.' && options.dot) out += '[^\\n]'
    else if (char === '^' && options.anchors) out += '(?:^|(?<=\\n))'
    else if (char === '$' && options.anchors) out += '(?=\\n|$)'
    else out += char
  }
  return out
}

/** Searches without ripgrep, selecting and matching files the way ripgrep does. */
export async function grepBuiltin(query: GrepQuery): Promise<GrepOutcome> {
  const compiled = compilePattern(query.pattern, query)
  if (!compiled.ok) return compiled
  const types = compileTypes(query.types, FILE_TYPES)
  if (!types.ok) return { ok: false, message: `unrecognized file type: ${types.unknown}` }
  const explicitFile = !(await stat(query.root)).isDirectory()
  const paths = await walkFiles({
    root: query.root,
    overrides: compileOverrides(query.globs),
    ...(query.types.length > 0 ? { fileFilter: types.test } : {}),
    ...(query.signal ? { signal: query.signal } : {}),
  })
  const results: GrepFileResult[] = []
  // Synchronous reads: for many small files they are about three times faster than the thread
  // pool's (measured in bench/search.ts); yielding every batch keeps cancellation responsive.
  for (let index = 0; index < paths.length; index += 1) {
    if (index % YIELD_EVERY === 0) {
      await new Promise((resolve) => setImmediate(resolve))
      if (query.signal?.aborted) break
    }
    let bytes: Buffer
    try {
      bytes = readFileSync(paths[index]!)
    } catch {
      continue
    }
    const result = searchBytes(paths[index]!, bytes, query, compiled, explicitFile)
    if (result) results.push(result)
  }
  return { ok: true, files: results.sort(byPath) }
}

function searchBytes(
  path: string,
  bytes: Buffer,
  query: GrepQuery,
  regex: { line: RegExp; whole: RegExp },
  explicitFile: boolean,
): GrepFileResult | undefined {
  const utf16 = bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe
  // ripgrep skips binary files it finds while walking (and searches files it is given).
  if (!utf16 && !explicitFile && bytes.includes(0)) return undefined
  const { text } = decodeText(bytes)
  // `whole` is global: test() moves lastIndex, and matchAll below starts from it.
  regex.whole.lastIndex = 0
  const found = regex.whole.test(text)
  regex.whole.lastIndex = 0
  if (!found) return undefined
  const lines = text.split('\n')
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop()
  const matched = new Set<number>()
  let matches = 0
  if (query.multiline) {
    const starts = lineStarts(text)
    for (const match of text.matchAll(regex.whole)) {
      const first = lineIndexAt(starts, match.index)
      const last = lineIndexAt(starts, Math.max(match.index, match.index + match[0].length - 1))
      for (let line = first; line <= last; line += 1) matched.add(line)
      matches += 1
    }
  } else {
    lines.forEach((line, index) => {
      if (regex.line.test(line)) matched.add(index)
    })
  }
  if (matched.size === 0) return undefined
  // ripgrep's --count counts matching lines, except in multiline mode where it counts matches.
  const count = query.multiline && query.mode === 'count' ? matches : matched.size
  if (query.mode === 'files_with_matches') return { path, count: 0, lines: [] }
  if (query.mode === 'count') return { path, count, lines: [] }
  const shown = new Set<number>()
  for (const index of matched) {
    for (
      let line = Math.max(0, index - query.before);
      line <= Math.min(lines.length - 1, index + query.after);
      line += 1
    ) {
      shown.add(line)
    }
  }
  const printed: GrepLine[] = [...shown]
    .sort((a, b) => a - b)
    .map((index) => ({ number: index + 1, text: lines[index]!, match: matched.has(index) }))
  return { path, count, lines: printed }
}

function lineStarts(text: string): number[] {
  const starts = [0]
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1))
    starts.push(index + 1)
  return starts
}

/** 0-based line of an offset (binary search over line starts). */
function lineIndexAt(starts: number[], offset: number): number {
  let low = 0
  let high = starts.length - 1
  while (low < high) {
    const middle = (low + high + 1) >> 1
    if (starts[middle]! <= offset) low = middle
    else high = middle - 1
  }
  return low
}
