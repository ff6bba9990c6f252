import { SECRET_RULES, type SecretRule } from './secret-rules.js'

/** A credential whose exact value is known (the engine's own API keys, read from its environment). */
export interface KnownSecret {
  /** The variable it came from; it labels the placeholder (`[REDACTED:OPENAI_API_KEY:1]`). */
  name: string
  value: string
}

/** Replaces secrets in text and in JSON-like values with stable placeholders. */
export interface Redactor {
  /** `text` with every secret replaced; the same string when there was none. */
  redact(text: string): string
  /** A copy of `value` with every string redacted (provider-opaque fields are left alone). */
  redactValue<T>(value: T): T
  /** How many distinct secrets were replaced so far. */
  readonly count: number
}

/** Known values shorter than this are not matched: `1` or `true` would redact half the output. */
export const MIN_KNOWN_SECRET_LENGTH = 8

const PLACEHOLDER_PREFIX = '[REDACTED:'

/**
 * Fields that carry provider-signed or binary data (thinking signatures, encrypted reasoning,
 * base64 images): changing a byte would make the provider reject the history, and they are not
 * text a person or a model reads.
 */
const OPAQUE_KEYS = new Set(['signature', 'encrypted'])
const OPAQUE_DATA_TYPES = new Set(['redacted_thinking', 'base64'])

/**
 * A redactor for one session: the same secret always gets the same placeholder
 * (`[REDACTED:github-token:1]`), so a model can still tell two tokens apart and a transcript stays
 * consistent, while the value itself never reaches the model or the log.
 */
export function createRedactor(
  options: { known?: readonly KnownSecret[]; rules?: readonly SecretRule[] } = {},
): Redactor {
  const rules = options.rules ?? SECRET_RULES
  // Longest first, so a value that contains another known value is replaced whole.
  const known = (options.known ?? [])
    .filter((secret) => secret.value.length >= MIN_KNOWN_SECRET_LENGTH)
    .sort((a, b) => b.value.length - a.value.length)
  const placeholders = new Map<string, string>()
  const perKind = new Map<string, number>()

  const placeholderFor = (kind: string, secret: string): string => {
    const key = `${kind}\u0000${secret}`
    let placeholder = placeholders.get(key)
    if (placeholder === undefined) {
      const n = (perKind.get(kind) ?? 0) + 1
      perKind.set(kind, n)
      placeholder = `${PLACEHOLDER_PREFIX}${kind}:${n}]`
      placeholders.set(key, placeholder)
    }
    return placeholder
  }

  const replacement = (rule: SecretRule, match: string, groups: unknown): string => {
    const secret = groupSecret(groups) ?? match
    if (secret.includes(PLACEHOLDER_PREFIX)) return match
    if (rule.accept && !rule.accept(secret)) return match
    const placeholder = placeholderFor(rule.kind, secret)
    if (secret === match) return placeholder
    // The secret group is the match's last occurrence of it (patterns end at or just after it).
    const at = match.lastIndexOf(secret)
    return match.slice(0, at) + placeholder + match.slice(at + secret.length)
  }

  const applyRule = (text: string, rule: SecretRule): string => {
    if (rule.anchors.length > 0 && !rule.anchors.some((anchor) => text.includes(anchor))) return text
    if (rule.mode === 'at-anchor') return applyAtAnchors(text, rule)
    rule.pattern.lastIndex = 0
    return text.replace(rule.pattern, (match: string, ...rest: unknown[]) =>
      replacement(rule, match, rest[rest.length - 1]),
    )
  }

  const applyAtAnchors = (text: string, rule: SecretRule): string => {
    const starts: number[] = []
    for (const anchor of rule.anchors) {
      for (let at = text.indexOf(anchor); at !== -1; at = text.indexOf(anchor, at + 1)) starts.push(at)
    }
    starts.sort((a, b) => a - b)
    let out = ''
    let copied = 0
    for (const start of starts) {
      if (start < copied) continue
      rule.pattern.lastIndex = start
      const match = rule.pattern.exec(text)
      if (match === null) continue
      out += text.slice(copied, start) + replacement(rule, match[0], match.groups)
      copied = start + match[0].length
    }
    return copied === 0 ? text : out + text.slice(copied)
  }

  const redact = (text: string): string => {
    let out = text
    for (const secret of known) {
      if (out.includes(secret.value))
        out = out.split(secret.value).join(placeholderFor(secret.name, secret.value))
    }
    for (const rule of rules) out = applyRule(out, rule)
    return out
  }

  const redactValue = (value: unknown): unknown => {
    if (typeof value === 'string') return redact(value)
    if (Array.isArray(value)) {
      let changed = false
      const next = value.map((item) => {
        const redacted = redactValue(item)
        if (redacted !== item) changed = true
        return redacted
      })
      return changed ? next : value
    }
    if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>
      const opaqueData = typeof record.type === 'string' && OPAQUE_DATA_TYPES.has(record.type)
      let next: Record<string, unknown> | undefined
      for (const [key, item] of Object.entries(record)) {
        if (OPAQUE_KEYS.has(key) || (opaqueData && key === 'data')) continue
        const redacted = redactValue(item)
        if (redacted !== item) {
          next ??= { ...record }
          next[key] = redacted
        }
      }
      return next ?? value
    }
    return value
  }

  return {
    redact,
    redactValue: <T>(value: T) => redactValue(value) as T,
    get count() {
      return placeholders.size
    },
  }
}

function groupSecret(groups: unknown): string | undefined {
  if (groups === null || typeof groups !== 'object') return undefined
  for (const [name, value] of Object.entries(groups as Record<string, unknown>)) {
    if (name.startsWith('secret') && typeof value === 'string') return value
  }
  return undefined
}
