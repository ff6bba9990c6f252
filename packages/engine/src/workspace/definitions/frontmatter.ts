import { type FrontmatterOptions, parseFrontmatter } from '@z-engine/prompts'
import type { DefinitionWarning } from './types.js'

/** A definition file read the way Claude Code reads it: never a failure, at worst empty metadata. */
export interface DefinitionText {
  data: Record<string, unknown>
  /** The markdown after the frontmatter, line endings normalised to `\n`. */
  body: string
  hasFrontmatter: boolean
  /** `frontmatter_repaired` / `frontmatter_invalid`, with the line when known. */
  warnings: DefinitionWarning[]
}

/** The free-text fields of any definition: their value may run over several lines. */
export const TEXT_FIELDS = ['description', 'when_to_use', 'when-to-use', 'argument-hint'] as const

/**
 * The one frontmatter reader for agents, skills, commands and rules. A BOM and CRLF line endings
 * are accepted; values YAML rejects are quoted (and tab indents made spaces) and parsed again, as
 * Claude Code retries; given the fields the caller reads, a header that still does not parse is read
 * line by line (`recoverFields`: a multi-line description with `user:` lines in it, say), so the
 * right fields are kept; otherwise it gives empty metadata and the body, with a
 * `frontmatter_invalid` warning.
 */
export function readDefinitionText(text: string, keys?: readonly string[]): DefinitionText {
  const options: FrontmatterOptions =
    keys === undefined ? {} : { keys, textKeys: TEXT_FIELDS.filter((key) => keys.includes(key)) }
  const parsed = parseFrontmatter(text, options)
  if (parsed.ok) {
    const warnings: DefinitionWarning[] = []
    if (parsed.recovered !== undefined)
      warnings.push({
        code: 'frontmatter_repaired',
        message: `the header is not valid YAML; ${parsed.recovered.map((key) => `"${key}"`).join(', ')} were read line by line (indent a multi-line value under its key, or use "key: |")`,
      })
    if (parsed.repaired !== undefined)
      warnings.push({
        code: 'frontmatter_repaired',
        message: `YAML rejected the value of ${parsed.repaired.map((key) => `"${key}"`).join(', ')}; it was read as quoted text (quote it in the file)`,
      })
    return { data: parsed.data, body: lf(parsed.body), hasFrontmatter: parsed.hasFrontmatter, warnings }
  }
  const at = parsed.line === undefined ? '' : ` (line ${parsed.line})`
  const unbom = text.startsWith('\uFEFF') ? text.slice(1) : text
  return {
    data: {},
    body: lf(parsed.body ?? unbom),
    hasFrontmatter: parsed.body !== undefined,
    warnings: [
      {
        code: 'frontmatter_invalid',
        message: `${parsed.error}${at}; the body was loaded with no metadata`,
      },
    ],
  }
}

function lf(text: string): string {
  return text.replace(/\r\n?/g, '\n')
}
