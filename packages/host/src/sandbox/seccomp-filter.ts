/**
 * The seccomp filter of a confined command on Linux (issue 34): no unix socket can be made, so no
 * socket the view shows (one in the project or a `write_paths` folder: a docker or ssh-agent
 * socket bound there) can be connected to — a read-only mount does not stop `connect()`. Built
 * here as a classic-BPF program (pure; bubblewrap loads it with `--seccomp FD`).
 *
 * - `socket(AF_UNIX, …)` fails with EPERM. Other families stay: without the network the
 *   sandbox's own loopback is all there is, with it a server must reach its service.
 * - `socketpair()` stays (Node and libuv make a command's child stdio with it), except of type
 *   `SOCK_DGRAM`: a datagram pair's end can be `connect()`ed or `sendto()` a path later, a stream
 *   or seqpacket end cannot (EISCONN).
 * - `io_uring_setup/enter/register` fail with EPERM: io_uring can create sockets without the
 *   `socket` syscall, so the filter would not see them (programs fall back to ordinary calls).
 * - The arch is checked first: an x86_64 process can make i386 calls (`int 0x80`), whose numbers
 *   differ, and x32 calls (numbers with bit 30 set); aarch64 can run 32-bit ARM code. On i386,
 *   `socketcall` (whose arguments sit behind a pointer the filter cannot read) may not create
 *   sockets or socket pairs at all. Any other arch is allowed (no such process can run here).
 */

/** Linux's `AUDIT_ARCH_*` values. */
const ARCH = {
  x86_64: 0xc000003e,
  i386: 0x40000003,
  aarch64: 0xc00000b7,
  arm: 0x40000028,
} as const

/** Syscall numbers per arch (`io_uring_*` are 425–427 on every arch). */
const CALLS = {
  x86_64: { socket: 41, socketpair: 53 },
  i386: { socket: 359, socketpair: 360, socketcall: 102 },
  aarch64: { socket: 198, socketpair: 199 },
  arm: { socket: 281, socketpair: 288 },
} as const
const IO_URING = [425, 426, 427] as const
/** x32 calls are x86_64's numbers with this bit set. */
const X32_BIT = 0x40000000

const AF_UNIX = 1
const SOCK_DGRAM = 2
/** `type` of socket/socketpair also carries SOCK_NONBLOCK and SOCK_CLOEXEC above these bits. */
const SOCK_TYPE_MASK = 0xf
/** `socketcall`'s first argument: which socket call. */
const SYS_SOCKET = 1
const SYS_SOCKETPAIR = 8
const EPERM = 1

const SECCOMP_RET_ALLOW = 0x7fff0000
const SECCOMP_RET_ERRNO = 0x00050000

/** Offsets into `struct seccomp_data`: nr, arch, then 64-bit arguments (the low word first). */
const NR = 0
const ARCH_OFFSET = 4
const argLow = (index: number) => 16 + 8 * index

/** Classic BPF opcodes used here. */
const LD_W_ABS = 0x20
const JEQ_K = 0x15
const AND_K = 0x54
const RET_K = 0x06

/** One instruction, with jumps to labels resolved by {@link assemble}. */
type Instruction =
  | { op: 'label'; name: string }
  | { op: 'load'; offset: number }
  | { op: 'and'; mask: number }
  | { op: 'jeq'; value: number; then: string }
  | { op: 'ret'; value: number }

const load = (offset: number): Instruction => ({ op: 'load', offset })
const jeq = (value: number, then: string): Instruction => ({ op: 'jeq', value, then })
const label = (name: string): Instruction => ({ op: 'label', name })
const allow: Instruction = { op: 'ret', value: SECCOMP_RET_ALLOW }
const deny: Instruction = { op: 'ret', value: SECCOMP_RET_ERRNO | EPERM }

/** The instructions (see the module comment for what they decide). */
function program(): Instruction[] {
  const perArch = (arch: 'x86_64' | 'aarch64' | 'arm', calls: { socket: number; socketpair: number }) => [
    label(arch),
    load(NR),
    // x32 shares x86_64's numbers for these calls, with bit 30 set.
    ...(arch === 'x86_64' ? [{ op: 'and', mask: ~X32_BIT >>> 0 } satisfies Instruction] : []),
    jeq(calls.socket, 'socket'),
    jeq(calls.socketpair, 'socketpair'),
    ...IO_URING.map((nr) => jeq(nr, 'deny')),
    allow,
  ]
  return [
    load(ARCH_OFFSET),
    jeq(ARCH.x86_64, 'x86_64'),
    jeq(ARCH.aarch64, 'aarch64'),
    jeq(ARCH.i386, 'i386'),
    jeq(ARCH.arm, 'arm'),
    allow,
    ...perArch('x86_64', CALLS.x86_64),
    ...perArch('aarch64', CALLS.aarch64),
    ...perArch('arm', CALLS.arm),
    label('i386'),
    load(NR),
    jeq(CALLS.i386.socket, 'socket'),
    jeq(CALLS.i386.socketpair, 'socketpair'),
    jeq(CALLS.i386.socketcall, 'socketcall'),
    ...IO_URING.map((nr) => jeq(nr, 'deny')),
    allow,
    label('socketcall'),
    load(argLow(0)),
    jeq(SYS_SOCKET, 'deny'),
    jeq(SYS_SOCKETPAIR, 'deny'),
    allow,
    label('socket'),
    load(argLow(0)),
    jeq(AF_UNIX, 'deny'),
    allow,
    label('socketpair'),
    load(argLow(1)),
    { op: 'and', mask: SOCK_TYPE_MASK },
    jeq(SOCK_DGRAM, 'deny'),
    allow,
    label('deny'),
    deny,
  ]
}

/** One `struct sock_filter`: code, jt, jf, k. */
interface Encoded {
  code: number
  jt: number
  jf: number
  k: number
}

/** Resolves labels into forward jump offsets (classic BPF jumps only forward, at most 255). */
function assemble(instructions: readonly Instruction[]): Encoded[] {
  const positions = new Map<string, number>()
  let position = 0
  for (const instruction of instructions) {
    if (instruction.op === 'label') positions.set(instruction.name, position)
    else position += 1
  }
  const encoded: Encoded[] = []
  for (const instruction of instructions) {
    switch (instruction.op) {
      case 'label':
        break
      case 'load':
        encoded.push({ code: LD_W_ABS, jt: 0, jf: 0, k: instruction.offset })
        break
      case 'and':
        encoded.push({ code: AND_K, jt: 0, jf: 0, k: instruction.mask })
        break
      case 'ret':
        encoded.push({ code: RET_K, jt: 0, jf: 0, k: instruction.value })
        break
      case 'jeq': {
        const target = positions.get(instruction.then)
        const jump = target === undefined ? -1 : target - encoded.length - 1
        if (jump < 0 || jump > 255) throw new Error(`seccomp filter: bad jump to ${instruction.then}`)
        encoded.push({ code: JEQ_K, jt: jump, jf: 0, k: instruction.value })
        break
      }
      default: {
        const unreachable: never = instruction
        throw new Error(`unknown instruction ${JSON.stringify(unreachable)}`)
      }
    }
  }
  return encoded
}

/** The filter as bubblewrap's `--seccomp` reads it: `struct sock_filter`s, little-endian (x86_64, aarch64). */
export function unixSocketFilter(): Buffer {
  const instructions = assemble(program())
  const bytes = Buffer.alloc(instructions.length * 8)
  for (const [index, instruction] of instructions.entries()) {
    const at = index * 8
    bytes.writeUInt16LE(instruction.code, at)
    bytes.writeUInt8(instruction.jt, at + 2)
    bytes.writeUInt8(instruction.jf, at + 3)
    bytes.writeUInt32LE(instruction.k >>> 0, at + 4)
  }
  return bytes
}
