/**
 * IP address parsing and classification for WebFetch. IPv4 is read the way `inet_aton` reads it
 * (decimal `2130706433`, hex `0x7f.1`, octal `0177.0.0.1`, short `127.1`), because that is how a
 * resolver or a lenient URL parser may read a host.
 */

/** Reads an IPv4 address in any inet_aton spelling; undefined when it is not one. */
export function parseIPv4(text: string): number | undefined {
  const parts = text.split('.')
  if (parts.length === 0 || parts.length > 4) return undefined
  const numbers: number[] = []
  for (const part of parts) {
    let value: number
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : Number.parseInt(part.slice(2), 16)
    else if (/^0[0-7]+$/.test(part)) value = Number.parseInt(part, 8)
    else if (/^(0|[1-9][0-9]*)$/.test(part)) value = Number(part)
    else return undefined
    if (!Number.isFinite(value)) return undefined
    numbers.push(value)
  }
  const last = numbers.pop() as number
  if (numbers.some((value) => value > 255)) return undefined
  if (last >= 2 ** (8 * (4 - numbers.length))) return undefined
  let address = 0
  for (const value of numbers) address = address * 256 + value
  return address * 2 ** (8 * (4 - numbers.length)) + last
}

/** Reads an IPv6 address (optionally in brackets, with a zone, or an embedded IPv4 tail) into 8 groups. */
export function parseIPv6(text: string): number[] | undefined {
  let body = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text
  const zone = body.indexOf('%')
  if (zone >= 0) body = body.slice(0, zone)
  if (!body.includes(':')) return undefined
  const lastColon = body.lastIndexOf(':')
  const last = body.slice(lastColon + 1)
  if (last.includes('.')) {
    // An embedded IPv4 tail (`::ffff:127.0.0.1`) is two groups written in dotted form.
    const v4 = /^\d+\.\d+\.\d+\.\d+$/.test(last) ? parseIPv4(last) : undefined
    if (v4 === undefined) return undefined
    body = `${body.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`
  }
  const halves = body.split('::')
  if (halves.length > 2) return undefined
  const parse = (part: string): number[] | undefined => {
    if (part === '') return []
    const groups: number[] = []
    for (const group of part.split(':')) {
      if (!/^[0-9a-f]{1,4}$/i.test(group)) return undefined
      groups.push(Number.parseInt(group, 16))
    }
    return groups
  }
  const head = parse(halves[0] as string)
  const rest = halves.length === 2 ? parse(halves[1] as string) : []
  if (!head || !rest) return undefined
  const known = head.length + rest.length
  if (halves.length === 1 && known !== 8) return undefined
  if (halves.length === 2 && known > 7) return undefined
  return [...head, ...new Array<number>(8 - known).fill(0), ...rest]
}

const V4_BLOCKED: readonly [string, number, string][] = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared address space (carrier NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
]

const V4_RANGES: readonly [number, number, string][] = V4_BLOCKED.map(([base, bits, label]) => [
  parseIPv4(base) as number,
  2 ** (32 - bits),
  label,
])

/** Why an IPv4 address (as a number) may not be fetched, or undefined when it is public. */
export function classifyIPv4(address: number): string | undefined {
  for (const [start, size, label] of V4_RANGES) {
    if (address >= start && address < start + size) return label
  }
  return undefined
}

/** Why an IPv6 address may not be fetched, or undefined when it is public. */
export function classifyIPv6(groups: readonly number[]): string | undefined {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0] = groups
  const embedded = g * 65536 + h
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0) {
    if (f === 0xffff) return classifyIPv4(embedded) ?? undefined
    if (f === 0)
      return g === 0 && h <= 1
        ? h === 1
          ? 'loopback'
          : 'unspecified'
        : (classifyIPv4(embedded) ?? 'IPv4-compatible')
  }
  // IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96) and local-use NAT64 (64:ff9b:1::/48).
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0xffff && f === 0) return classifyIPv4(embedded)
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return classifyIPv4(embedded)
  if (a === 0x64 && b === 0xff9b && c === 1) return classifyIPv4(embedded) ?? 'local-use NAT64'
  if (a === 0x2002) return classifyIPv4(b * 65536 + c)
  if (a === 0x100 && b === 0 && c === 0 && d === 0) return 'discard-only'
  if (a === 0x2001 && b === 0xdb8) return 'documentation'
  if (a === 0x2001 && b < 0x200) return 'IETF protocol assignments (Teredo, benchmarking)'
  if ((a & 0xfe00) === 0xfc00) return 'unique local (private)'
  if ((a & 0xffc0) === 0xfe80) return 'link-local'
  if ((a & 0xffc0) === 0xfec0) return 'site-local'
  if ((a & 0xff00) === 0xff00) return 'multicast'
  return undefined
}
