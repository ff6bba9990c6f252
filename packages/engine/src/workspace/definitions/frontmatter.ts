import { parseFrontmatter } from '@z-engine/prompts'
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

/**
 * The one frontmatter reader for agents, skills, commands and rules. A BOM and CRLF line endings
 * are accepted; values YAML rejects are quoted and parsed again; a header that still does not parse
 * gives empty metadata and the body, with a `frontmatter_invalid` warning (Claude Code's behaviour).
 */
export function readDefinitionText(text: string): DefinitionText {
  const parsed = parseFrontmatter(text)
  if (parsed.ok) {
    const warnings: DefinitionWarning[] = []
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
