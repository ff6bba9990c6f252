import { INSTRUCTION_MAX_BYTES } from '../limits.js'

/** Cuts text to at most `maxBytes` of UTF-8 without splitting a character. */
export function truncateUtf8(
  text: string,
  maxBytes: number = INSTRUCTION_MAX_BYTES,
): { text: string; truncated: boolean } {
  const bytes = new TextEncoder().encode(text)
  if (bytes.length <= maxBytes) return { text, truncated: false }
  let end = maxBytes
  // Back up over UTF-8 continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--
  return { text: new TextDecoder().decode(bytes.subarray(0, end)), truncated: true }
}

/** Like {@link truncateUtf8} but for bytes read from disk (invalid UTF-8 becomes U+FFFD). */
export function decodeInstructionBytes(
  bytes: Uint8Array,
  maxBytes: number = INSTRUCTION_MAX_BYTES,
): { text: string; truncated: boolean } {
  if (bytes.length <= maxBytes) return { text: new TextDecoder().decode(bytes), truncated: false }
  let end = maxBytes
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--
  return { text: new TextDecoder().decode(bytes.subarray(0, end)), truncated: true }
}

/**
 * The note of a `#` message (`# always run pnpm test` → `always run pnpm test`), or null when the
 * text is not one. Markdown headings (`## Title`) and a lone `#` are not notes.
 */
export function parseMemoryNote(text: string): string | null {
  const match = /^#(?!#)\s*(\S[\s\S]*)$/.exec(text.trim())
  if (!match) return null
  const note = (match[1] ?? '').trim()
  return note === '' ? null : note
}

/** The bullet a `/remember` or `#` note appends to an instruction file. */
export function memoryBullet(note: string): string {
  return `- ${note.trim().replace(/\s*\n\s*/g, ' ')}\n`
}
