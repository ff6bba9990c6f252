/** Decodes the body of a `$'…'` string starting at `start` (after `$'`); undefined when unterminated. */
export function decodeAnsiC(src: string, start: number): { value: string; end: number } | undefined {
  let pos = start
  let value = ''
  const simple: Record<string, string> = {
    n: '\n',
    t: '\t',
    r: '\r',
    a: '\x07',
    b: '\b',
    e: '\x1b',
    E: '\x1b',
    f: '\f',
    v: '\v',
    '\\': '\\',
    "'": "'",
    '"': '"',
    '?': '?',
  }
  while (pos < src.length) {
    const c = src[pos] as string
    if (c === "'") return { value, end: pos + 1 }
    if (c !== '\\') {
      value += c
      pos++
      continue
    }
    const next = src[pos + 1] ?? ''
    const mapped = simple[next]
    if (mapped !== undefined) {
      value += mapped
      pos += 2
      continue
    }
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(src.slice(pos + 1, pos + 4))
    const octal = /^([0-7]{1,3})/.exec(src.slice(pos + 1, pos + 4))
    const unicode = /^(?:u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8}))/.exec(src.slice(pos + 1, pos + 10))
    if (hex?.[1]) {
      value += String.fromCharCode(Number.parseInt(hex[1], 16))
      pos += 1 + hex[0].length
    } else if (octal?.[1]) {
      value += String.fromCharCode(Number.parseInt(octal[1], 8) & 0xff)
      pos += 1 + octal[0].length
    } else if (unicode) {
      const code = Number.parseInt((unicode[1] ?? unicode[2]) as string, 16)
      value += code <= 0x10ffff ? String.fromCodePoint(code) : ''
      pos += 1 + unicode[0].length
    } else {
      value += `\\${next}`
      pos += 2
    }
  }
  return undefined
}
