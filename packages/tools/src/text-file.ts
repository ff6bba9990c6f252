/**
 * Text files as the tools see them: decoded to a string with the encoding, BOM and line-ending
 * style remembered, so a write puts back exactly the conventions the file had.
 */

/** The encodings the tools round-trip. */
export type TextEncoding = 'utf8' | 'utf16le'

/** A file's line-ending style: `mixed` files are matched and written as they are. */
export type LineEndings = 'lf' | 'crlf' | 'mixed'

/** A decoded text file. */
export interface TextFile {
  /** The text without BOM, line endings untouched. */
  text: string
  encoding: TextEncoding
  bom: boolean
  lineEndings: LineEndings
}

/** Decodes file bytes (UTF-8 or UTF-16LE with a BOM; UTF-8 otherwise). */
export function decodeText(bytes: Buffer): TextFile {
  let encoding: TextEncoding = 'utf8'
  let bom = false
  let body = bytes
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    bom = true
    body = bytes.subarray(3)
  } else if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    bom = true
    encoding = 'utf16le'
    body = bytes.subarray(2)
  }
  const text = body.toString(encoding)
  return { text, encoding, bom, lineEndings: lineEndingsOf(text) }
}

/** The line-ending style of a text. A text without line breaks counts as `lf`. */
export function lineEndingsOf(text: string): LineEndings {
  const crlf = text.split('\r\n').length - 1
  const lf = text.split('\n').length - 1
  if (crlf === 0) return 'lf'
  return crlf === lf ? 'crlf' : 'mixed'
}

/** Encodes text with a file's encoding and BOM. */
export function encodeText(text: string, file: Pick<TextFile, 'encoding' | 'bom'>): Buffer {
  const body = Buffer.from(text, file.encoding)
  if (!file.bom) return body
  const bom = file.encoding === 'utf8' ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.from([0xff, 0xfe])
  return Buffer.concat([bom, body])
}

/** Converts bare LF line breaks to CRLF. */
export function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n')
}

/** Converts CRLF line breaks to LF. */
export function toLf(text: string): string {
  return text.replace(/\r\n/g, '\n')
}

/**
 * Whether bytes look binary: a NUL byte, or many control characters, in the first 8 KiB. UTF-16
 * with a BOM is text.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return false
  const sample = bytes.subarray(0, 8192)
  let control = 0
  for (const byte of sample) {
    if (byte === 0) return true
    if (byte < 7 || (byte > 13 && byte < 32 && byte !== 27)) control += 1
  }
  return sample.length > 0 && control / sample.length > 0.1
}
