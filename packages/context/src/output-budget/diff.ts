import { marker, plural } from './gap-marker.js'
import { fitLines } from './line-selection.js'
import { roundRobin } from './round-robin.js'

/** Share of the budget for what comes before the first file (a commit header from `git show`). */
const PREAMBLE_SHARE = 0.1

interface DiffFile {
  /** The `diff --git` (or `---`) line through the line before the first hunk. */
  header: [number, number]
  hunks: [number, number][]
}

/** Whether a text looks like a unified diff. */
export function looksLikeDiff(lines: readonly string[]): boolean {
  let hunks = 0
  for (const line of lines) {
    if (line.startsWith('diff --git ')) return true
    if (line.startsWith('@@ ') && ++hunks >= 2) return true
  }
  return false
}

/**
 * A unified diff: every file's header, then every hunk's `@@` line, then whole hunks (the first
 * hunk of each file before any file's second), then the start of hunks too big to keep whole.
 * Markers count the added and removed lines left out, so the model knows what it did not see.
 */
export function planDiff(lines: readonly string[], budget: number): string {
  const files = parseDiff(lines)
  return fitLines(
    lines,
    budget,
    (selection) => {
      const firstFile = files[0]?.header[0] ?? lines.length
      if (firstFile > 0) {
        const cap = Math.floor(budget * PREAMBLE_SHARE)
        let spent = 0
        for (let index = 0; index < firstFile; index++) {
          const cost = selection.takeRange(index, index, cap - spent)
          if (cost === undefined) break
          spent += cost
        }
      }
      for (const file of files) selection.takeRange(file.header[0], file.header[1])
      selection.takeEach(roundRobin(files.map((file) => file.hunks.map(([start]) => start))))
      for (const [start, end] of roundRobin(files.map((file) => file.hunks))) selection.takeRange(start, end)
      for (const [start, end] of roundRobin(files.map((file) => file.hunks))) {
        for (let index = start + 1; index <= end; index++) {
          if (selection.takeRange(index, index) === undefined) break
        }
      }
      selection.takeHead(selection.remaining)
    },
    (from, to) => describeDiffGap(lines, from, to),
  )
}

function parseDiff(lines: readonly string[]): DiffFile[] {
  // `git diff` starts each file at `diff --git`; a plain `diff -u` at a `---`/`+++` pair.
  const git = lines.some((line) => line.startsWith('diff --git ') || line.startsWith('diff --cc '))
  const files: DiffFile[] = []
  let current: DiffFile | undefined
  let hunk: [number, number] | undefined
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    const starts = git
      ? line.startsWith('diff --git ') || line.startsWith('diff --cc ')
      : line.startsWith('--- ') && lines[index + 1]?.startsWith('+++ ') === true
    if (starts) {
      current = { header: [index, index], hunks: [] }
      hunk = undefined
      files.push(current)
      continue
    }
    if (!current) continue
    if (line.startsWith('@@')) {
      hunk = [index, index]
      current.hunks.push(hunk)
      continue
    }
    if (hunk) hunk[1] = index
    else current.header[1] = index
  }
  return files
}

function describeDiffGap(lines: readonly string[], from: number, to: number): string {
  let added = 0
  let removed = 0
  let hunks = 0
  let files = 0
  for (let index = from; index <= to; index++) {
    const line = lines[index]!
    if (line.startsWith('diff --git ')) files++
    else if (line.startsWith('@@')) hunks++
    else if (line.startsWith('+') && !line.startsWith('+++ ')) added++
    else if (line.startsWith('-') && !line.startsWith('--- ')) removed++
  }
  const parts = [plural(to - from + 1, 'line')]
  if (files > 0) parts.push(plural(files, 'file'))
  if (hunks > 0) parts.push(plural(hunks, 'hunk'))
  const changes = added + removed > 0 ? ` (+${added} -${removed})` : ''
  return marker(`${parts.join(', ')} omitted${changes}`)
}
