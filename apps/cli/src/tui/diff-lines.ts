/** A unified diff as the chat shows it: the hunks without file headers, their counts, the path. */

/**
 * The hunks of a unified diff without its file headers (`Index:`, `===`, `---`, `+++`): the card
 * names the file once, so the change itself gets the rows.
 */
export function diffBody(unifiedDiff: string): string[] {
  const lines = unifiedDiff.replace(/\n$/, '').split('\n')
  const firstHunk = lines.findIndex((line) => line.startsWith('@@'))
  const body = firstHunk < 0 ? lines : lines.slice(firstHunk)
  return body.filter(
    (line) => !line.startsWith('--- ') && !line.startsWith('+++ ') && !line.startsWith('Index: '),
  )
}

/** Added and removed line counts of a diff body. */
export function diffCounts(body: readonly string[]): { added: number; removed: number } {
  let added = 0
  let removed = 0
  for (const line of body) {
    if (line.startsWith('+')) added++
    else if (line.startsWith('-')) removed++
  }
  return { added, removed }
}

/** A path as the card shows it: relative to the project when inside it, else as given. */
export function shownPath(path: string, projectRoot: string | undefined): string {
  if (projectRoot === undefined) return path
  const root = projectRoot.endsWith('/') ? projectRoot : `${projectRoot}/`
  if (path === projectRoot) return '.'
  return path.startsWith(root) ? path.slice(root.length) : path
}

/** Columns between tab stops when a tab is drawn. */
const TAB_WIDTH = 4

/**
 * A line with its tabs turned into spaces up to the next tab stop: the terminal would move the
 * cursor past what the layout measured, and a bordered card's right edge would break.
 */
export function expandTabs(line: string): string {
  if (!line.includes('\t')) return line
  let out = ''
  for (const character of line) {
    if (character === '\t') out += ' '.repeat(TAB_WIDTH - (out.length % TAB_WIDTH))
    else out += character
  }
  return out
}
