import { parse } from 'yaml'

/** A markdown file split into its YAML frontmatter (a mapping) and the body after it. */
export type FrontmatterResult =
  | { ok: true; data: Record<string, unknown>; body: string; hasFrontmatter: boolean }
  | { ok: false; error: string; line?: number }

const OPENING = /^---[ \t]*\r?\n/
const CLOSING = /^---[ \t]*$/m

/**
 * Splits `---` frontmatter from a markdown document and parses it as YAML. Never throws: a broken
 * header comes back as an error with the line (1-based, in the file) where YAML saw the problem.
 */
export function parseFrontmatter(text: string): FrontmatterResult {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text
  const opening = OPENING.exec(source)
  if (!opening) return { ok: true, data: {}, body: source, hasFrontmatter: false }
  const rest = source.slice(opening[0].length)
  const closing = CLOSING.exec(rest)
  if (!closing)
    return { ok: false, error: 'The frontmatter opened with --- is never closed with a --- line', line: 1 }
  const header = rest.slice(0, closing.index)
  const body = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, '')
  let data: unknown
  try {
    data = parse(header, { prettyErrors: true })
  } catch (error) {
    const linePos = (error as { linePos?: Array<{ line: number }> }).linePos
    const line = linePos?.[0]?.line
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error)
    // +1 for the opening `---` line, so the number points into the file the user edits.
    return line === undefined
      ? { ok: false, error: `Invalid YAML frontmatter: ${message}` }
      : { ok: false, error: `Invalid YAML frontmatter: ${message}`, line: line + 1 }
  }
  if (data === null || data === undefined) return { ok: true, data: {}, body, hasFrontmatter: true }
  if (typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, error: 'The frontmatter must be a YAML mapping (key: value lines)', line: 2 }
  }
  return { ok: true, data: data as Record<string, unknown>, body, hasFrontmatter: true }
}
