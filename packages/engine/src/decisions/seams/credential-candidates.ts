import { createRedactor } from '@z-engine/policy'
import type { ToolResultBlock } from '@z-engine/protocol'
import type { CredentialCandidate } from '../seam-types.js'

/**
 * Names that announce a credential in an assignment (`DB_PASSWORD=…`, `"apiKey": "…"`). The
 * session's redactor already replaced the shapes it knows (policy's SECRET_RULES); what is left is
 * values only their context makes suspicious.
 */
const ASSIGNMENT =
  /(?<name>[A-Za-z_][A-Za-z0-9_.-]*(?:pass(?:word|wd)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credential|auth)[A-Za-z0-9_]*)["']?\s*[:=]\s*["']?(?<value>[^\s"',;}{]{8,200})/gi

/** Values that are references or stand-ins, not secrets. */
const NOT_A_VALUE =
  /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|<[^>]*>|\*+|x+|X+|\.{3}|\[(?:REDACTED|WITHHELD):[^\]]*\]|true|false|null|undefined|none|changeme|password|process\.env\.[A-Za-z_]+)$/i

const MAX_CANDIDATES = 20

function textOf(block: ToolResultBlock): string {
  return block.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')
}

function lineAround(text: string, at: number, value: string): string {
  const start = text.lastIndexOf('\n', at) + 1
  const end = text.indexOf('\n', at)
  const line = text.slice(start, end === -1 ? undefined : end).slice(0, 300)
  return line.split(value).join('****')
}

/** The part of `token` the policy's rules replace (between the unchanged prefix and suffix), if any. */
function redactedPart(token: string): string | undefined {
  const redacted = createRedactor().redact(token)
  if (redacted === token) return undefined
  let start = 0
  while (start < token.length && token[start] === redacted[start]) start++
  let end = 0
  while (end < token.length - start && token[token.length - 1 - end] === redacted[redacted.length - 1 - end])
    end++
  return token.slice(start, token.length - end)
}

/**
 * Likely credentials in new tool results, for the screen_request use to judge (pure): values the
 * policy's secret rules match (when a result escaped redaction) and values assigned to
 * credential-like names. `known` values (already decided by the user) are left out.
 */
export function credentialCandidates(
  results: readonly { block: ToolResultBlock; toolName: string }[],
  known: ReadonlySet<string>,
): CredentialCandidate[] {
  const found = new Map<string, CredentialCandidate>()
  for (const { block, toolName } of results) {
    const text = textOf(block)
    // The policy's rules, run by a fresh redactor: a placeholder differing from the text marks a match.
    const probe = createRedactor()
    if (probe.redact(text) !== text) {
      for (const token of text.split(/\s+/)) {
        const value = redactedPart(token)
        if (value === undefined || value.length < 8 || known.has(value) || found.has(value)) continue
        found.set(value, {
          toolUseId: block.toolUseId,
          toolName,
          value,
          kind: 'secret-shape',
          context: lineAround(text, text.indexOf(value), value),
        })
      }
    }
    for (const match of text.matchAll(ASSIGNMENT)) {
      const value = match.groups?.value ?? ''
      if (NOT_A_VALUE.test(value) || known.has(value) || found.has(value)) continue
      found.set(value, {
        toolUseId: block.toolUseId,
        toolName,
        value,
        kind: `assigned to ${match.groups?.name ?? 'a credential name'}`,
        context: lineAround(text, match.index ?? 0, value),
      })
    }
    if (found.size >= MAX_CANDIDATES) break
  }
  return [...found.values()].slice(0, MAX_CANDIDATES)
}
