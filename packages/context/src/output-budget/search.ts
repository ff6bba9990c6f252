import { marker, plural } from './gap-marker.js'
import { fitLines } from './line-selection.js'
import { roundRobin } from './round-robin.js'

/** `path:12:text` (a match) — the path is everything before the first `:<line>:`. */
const MATCH_LINE = /^(.+?):(\d+):/
/** Context lines before a match are looked up this far ahead (ripgrep -B tops out well below). */
const MAX_CONTEXT_LOOKAHEAD = 64
/** `12:text` or `12-text` under a `--heading` file name. */
const HEADING_ENTRY = /^\d+[:-]/

/** One file's results: its heading line (in `--heading` output) and its groups of lines. */
interface SearchFile {
  path: string
  heading: number | undefined
  /** Line ranges (inclusive): a match with its context lines. */
  groups: [number, number][]
}

/**
 * Search matches (ripgrep/grep output, file lists): lines before the first result (a count), then
 * the first match line of every file, then those matches' context lines, then the second result of
 * every file, and so on, each with its file's name; markers say which files the left-out matches are in.
 */
export function planSearch(lines: readonly string[], budget: number): string {
  const { files, fileOf, preamble } = parseSearch(lines)
  return fitLines(
    lines,
    budget,
    (selection) => {
      selection.takeEach(preamble)
      const groups = files.map((file) =>
        file.groups.map(([start, end], index) =>
          index === 0 && file.heading !== undefined
            ? ([file.heading, end] as const)
            : ([start, end] as const),
        ),
      )
      const takeMatches = ([start, end]: readonly [number, number]): void => {
        for (let index = start; index <= end; index++) {
          if (isMatch(lines[index]!)) selection.takeRange(index, index)
        }
      }
      // Every file's first match line (under its heading), then that result with its context.
      for (const first of groups) {
        const [start, end] = first[0] ?? [0, -1]
        for (let index = start; index <= end; index++) {
          if (!isMatch(lines[index]!)) continue
          if (start !== index && !isMatch(lines[start]!) && !/^\d+-/.test(lines[start]!))
            selection.takeRange(start, start)
          selection.takeRange(index, index)
          break
        }
      }
      for (const first of groups) if (first[0]) selection.takeRange(first[0][0], first[0][1])
      // Then later results, round by round, whole; then their match lines.
      const later = groups.map((file) => file.slice(1))
      for (const [start, end] of roundRobin(later)) selection.takeRange(start, end)
      for (const group of roundRobin(later)) takeMatches(group)
    },
    (from, to) => describeSearchGap(fileOf, from, to),
  )
}

/** A match line (not a context line, heading or separator). */
function isMatch(line: string): boolean {
  return MATCH_LINE.test(line) || /^\d+:/.test(line)
}

function parseSearch(lines: readonly string[]): {
  files: SearchFile[]
  fileOf: (string | undefined)[]
  preamble: number[]
} {
  const byPath = new Map<string, SearchFile>()
  const files: SearchFile[] = []
  const fileOf: (string | undefined)[] = new Array(lines.length).fill(undefined)
  const preamble: number[] = []
  let current: SearchFile | undefined
  let group: [number, number] | undefined
  const fileFor = (path: string): SearchFile => {
    let file = byPath.get(path)
    if (!file) {
      file = { path, heading: undefined, groups: [] }
      byPath.set(path, file)
      files.push(file)
    }
    return file
  }
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    if (line === '--' || line === '') {
      group = undefined
      if (line === '') current = undefined
      continue
    }
    // `--heading` output: a file name alone, its matches below as `12:text`.
    if (!HEADING_ENTRY.test(line) && HEADING_ENTRY.test(lines[index + 1] ?? '') && !MATCH_LINE.test(line)) {
      current = fileFor(line)
      current.heading = index
      fileOf[index] = line
      group = undefined
      continue
    }
    if (current?.heading !== undefined && HEADING_ENTRY.test(line)) {
      fileOf[index] = current.path
      if (group) group[1] = index
      else {
        group = [index, index]
        current.groups.push(group)
      }
      continue
    }
    const match = MATCH_LINE.exec(line)
    // A context line (`path-12-text`) continues the group of the file it names.
    const path = match?.[1] ?? contextPath(lines, index, current?.path)
    if (path === undefined) {
      // A file list, a count, or a header line: a list entry is its own file; text before any
      // result is the preamble.
      if (files.length === 0 && !looksLikePath(line)) preamble.push(index)
      else {
        const file = fileFor(line)
        fileOf[index] = line
        file.groups.push([index, index])
        current = undefined
        group = undefined
      }
      continue
    }
    const file = fileFor(path)
    fileOf[index] = path
    // A match starts its own group unless context lines before it lead into it; context lines
    // after a match stay with it.
    const leadsIn = index > 0 && !MATCH_LINE.test(lines[index - 1]!)
    if (group && current === file && (match === null || leadsIn)) group[1] = index
    else {
      group = [index, index]
      file.groups.push(group)
    }
    current = file
  }
  return { files, fileOf, preamble }
}

/**
 * The file a context line (`path-12-text`) belongs to: the current file, or the file of the next
 * match in its group (context before a file's first match).
 */
function contextPath(
  lines: readonly string[],
  index: number,
  current: string | undefined,
): string | undefined {
  const line = lines[index]!
  if (current !== undefined && line.startsWith(`${current}-`)) return current
  for (let next = index + 1; next < Math.min(lines.length, index + MAX_CONTEXT_LOOKAHEAD); next++) {
    const candidate = lines[next]!
    if (candidate === '--' || candidate === '') return undefined
    const path = MATCH_LINE.exec(candidate)?.[1]
    if (path !== undefined) return line.startsWith(`${path}-`) ? path : undefined
  }
  return undefined
}

function looksLikePath(line: string): boolean {
  return !/\s/.test(line.trim()) && /[/.]/.test(line)
}

function describeSearchGap(fileOf: readonly (string | undefined)[], from: number, to: number): string {
  const counts = new Map<string, number>()
  for (let index = from; index <= to; index++) {
    const path = fileOf[index]
    if (path !== undefined) counts.set(path, (counts.get(path) ?? 0) + 1)
  }
  const count = plural(to - from + 1, 'line')
  if (counts.size === 0) return marker(`${count} omitted`)
  const [path, lines] = [...counts][0]!
  if (counts.size === 1) return marker(`${count} omitted in ${path}`)
  return marker(`${count} omitted in ${counts.size} files (${path}: ${lines}, …)`)
}
