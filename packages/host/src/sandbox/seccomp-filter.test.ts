import { describe, expect, it } from 'vitest'
import { unixSocketFilter } from './seccomp-filter.js'

/**
 * A classic-BPF interpreter for the opcodes seccomp programs use, so every arch's branch is checked
 * (the escape suite runs the x86_64 or aarch64 one under real bubblewrap; i386, x32 and 32-bit ARM
 * calls cannot be made from Node).
 */
function evaluate(program: Buffer, data: { arch: number; nr: number; args?: number[] }): number {
  const word = (offset: number): number => {
    if (offset === 0) return data.nr >>> 0
    if (offset === 4) return data.arch >>> 0
    const index = (offset - 16) / 8
    if (!Number.isInteger(index)) throw new Error(`unexpected load at ${offset}`)
    return (data.args?.[index] ?? 0) >>> 0
  }
  let accumulator = 0
  for (let pc = 0; pc < program.length / 8; ) {
    const at = pc * 8
    const code = program.readUInt16LE(at)
    const jt = program.readUInt8(at + 2)
    const jf = program.readUInt8(at + 3)
    const k = program.readUInt32LE(at + 4)
    switch (code) {
      case 0x20:
        accumulator = word(k)
        pc += 1
        break
      case 0x54:
        accumulator = (accumulator & k) >>> 0
        pc += 1
        break
      case 0x15:
        pc += 1 + (accumulator === k ? jt : jf)
        break
      case 0x06:
        return k
      default:
        throw new Error(`unexpected opcode ${code.toString(16)}`)
    }
  }
  throw new Error('fell off the end of the program')
}

const ALLOW = 0x7fff0000
const EPERM = 0x00050001
const X86_64 = 0xc000003e
const I386 = 0x40000003
const AARCH64 = 0xc00000b7
const ARM = 0x40000028
const AF_UNIX = 1
const AF_INET = 2
const AF_NETLINK = 16
const SOCK_STREAM = 1
const SOCK_DGRAM = 2
const SOCK_SEQPACKET = 5
const SOCK_CLOEXEC = 0o2000000

const program = unixSocketFilter()
const decide = (arch: number, nr: number, ...args: number[]) => evaluate(program, { arch, nr, args })

describe('unixSocketFilter', () => {
  it.each([
    ['x86_64', X86_64, 41, 53],
    ['x32', X86_64, 0x40000000 + 41, 0x40000000 + 53],
    ['aarch64', AARCH64, 198, 199],
    ['arm', ARM, 281, 288],
    ['i386', I386, 359, 360],
  ])(
    '%s: socket(AF_UNIX) is EPERM, other families and stream socketpairs are allowed',
    (_, arch, socket, pair) => {
      expect(decide(arch, socket, AF_UNIX, SOCK_STREAM)).toBe(EPERM)
      expect(decide(arch, socket, AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC)).toBe(EPERM)
      expect(decide(arch, socket, AF_INET, SOCK_STREAM)).toBe(ALLOW)
      expect(decide(arch, socket, AF_NETLINK, SOCK_DGRAM)).toBe(ALLOW)
      expect(decide(arch, pair, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC)).toBe(ALLOW)
      expect(decide(arch, pair, AF_UNIX, SOCK_SEQPACKET)).toBe(ALLOW)
      // A datagram end can be connect()ed or sendto() a path later.
      expect(decide(arch, pair, AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC)).toBe(EPERM)
    },
  )

  it.each([
    ['x86_64', X86_64],
    ['aarch64', AARCH64],
    ['arm', ARM],
    ['i386', I386],
  ])('%s: io_uring (which makes sockets past the filter) is EPERM', (_, arch) => {
    for (const nr of [425, 426, 427]) expect(decide(arch, nr)).toBe(EPERM)
    expect(decide(X86_64, 0x40000000 + 425)).toBe(EPERM)
  })

  it('i386 socketcall cannot make sockets or pairs (its arguments are behind a pointer); its other calls pass', () => {
    expect(decide(I386, 102, 1)).toBe(EPERM)
    expect(decide(I386, 102, 8)).toBe(EPERM)
    expect(decide(I386, 102, 3)).toBe(ALLOW)
  })

  it('every other call, and other arches, are allowed (the filter denies, it does not allowlist)', () => {
    for (const nr of [0, 1, 42, 57, 59, 231]) expect(decide(X86_64, nr, AF_UNIX)).toBe(ALLOW)
    for (const nr of [63, 64, 203, 220, 221]) expect(decide(AARCH64, nr, AF_UNIX)).toBe(ALLOW)
    expect(decide(0xc0000015, 198, AF_UNIX)).toBe(ALLOW)
  })
})
