const IMPORT = /(^|[\s(])@((?:~\/|\.{1,2}\/|\/)?[\w.\-~/]*[\w~/-][\w.\-~/]*)/g
const FENCE = /^\s*(```|~~~)/

/**
 * Calls `visit` on each stretch of prose in a markdown text — outside fenced code blocks and inline
 * code spans — and joins the results with the code left as it was.
 */
function mapProse(content: string, visit: (prose: string) => string): string {
  let fenced = false
  return content
    .split('\n')
    .map((line) => {
      if (FENCE.test(line)) {
        fenced = !fenced
        return line
      }
      if (fenced) return line
      return line
        .split(/(`[^`]*`)/)
        .map((part, index) => (index % 2 === 1 ? part : visit(part)))
        .join('')
    })
    .join('\n')
}

/** The path an `@` mention names, or undefined when it is a mention of something else. */
function importPath(raw: string): string | undefined {
  const path = raw.replace(/[.]+$/, '')
  // A bare word like "@here" or "@agent-explore" is a mention, not a file: require a slash or an extension.
  if (path === '' || (!path.includes('/') && !/\.\w+$/.test(path))) return undefined
  return path
}

/**
 * The `@path` imports of an instruction file, in order, without duplicates. Text in fenced code
 * blocks and inline code spans is ignored (an `@decorator` in an example is not an import), and so
 * are e-mail addresses (an `@` must start a word). A trailing period is punctuation, not part of
 * the path.
 */
export function findImports(content: string): string[] {
  const found: string[] = []
  mapProse(content, (prose) => {
    for (const match of prose.matchAll(IMPORT)) {
      const path = importPath(match[2] ?? '')
      if (path !== undefined && !found.includes(path)) found.push(path)
    }
    return prose
  })
  return found
}

/**
 * Replaces each `@path` import with the text loaded for it, where the mention stands (as Claude
 * Code expands memory imports). Mentions without an entry — not found, outside the project, too
 * deep, already loaded — stay as written; code blocks and spans are never touched.
 */
export function expandImports(content: string, loaded: ReadonlyMap<string, string>): string {
  if (loaded.size === 0) return content
  return mapProse(content, (prose) =>
    prose.replace(IMPORT, (whole, lead: string, raw: string) => {
      const path = importPath(raw)
      const text = path === undefined ? undefined : loaded.get(path)
      if (text === undefined) return whole
      return `${lead}${text}${raw.slice((path ?? '').length)}`
    }),
  )
}

/**
 * Removes HTML comments (`<!-- … -->`, across lines too) from prose, as Claude Code does before a
 * memory file reaches the model; comments inside code blocks and spans are content and stay.
 */
export function stripHtmlComments(content: string): string {
  if (!content.includes('<!--')) return content
  let open = false
  const stripped = mapProse(content, (prose) => {
    let out = ''
    let rest = prose
    while (rest !== '') {
      if (open) {
        const end = rest.indexOf('-->')
        if (end === -1) return out
        rest = rest.slice(end + 3)
        open = false
        continue
      }
      const start = rest.indexOf('<!--')
      if (start === -1) return out + rest
      out += rest.slice(0, start)
      rest = rest.slice(start + 4)
      open = true
    }
    return out
  }).split('\n')
  const original = content.split('\n')
  // A line that held only a comment goes entirely, rather than leaving a blank line behind.
  return stripped
    .filter((line, index) => line.trim() !== '' || (original[index] ?? '').trim() === '')
    .join('\n')
}
