import type { SandboxProfile } from './profile.js'

/** Where macOS keeps the seatbelt launcher. */
export const SANDBOX_EXEC = '/usr/bin/sandbox-exec'

/**
 * The seatbelt (SBPL) profile text for `profile` (pure). Later rules win in SBPL, so the order is:
 * everything allowed, every write denied, the writable folders (and the devices a shell needs)
 * allowed, protected paths denied again (existing or not: seatbelt needs no placeholder), secrets
 * unreadable, and without the network only localhost reachable.
 */
export function seatbeltProfileText(profile: SandboxProfile): string {
  const lines = ['(version 1)', '(allow default)', '(deny file-write*)']
  lines.push('(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper")')
  lines.push('  (regex #"^/dev/tty") (regex #"^/dev/fd/") (regex #"^/dev/ptmx$") (regex #"^/dev/ttys"))')
  if (profile.writable.length > 0)
    lines.push(`(allow file-write* ${profile.writable.map((path) => `(subpath ${quote(path)})`).join(' ')})`)
  const protectedPaths = [...profile.readOnly, ...profile.placeholders].map((entry) => entry.path)
  if (protectedPaths.length > 0)
    lines.push(
      `(deny file-write* ${protectedPaths.map((path) => `(literal ${quote(path)}) (subpath ${quote(path)})`).join(' ')})`,
    )
  // Pinned folders (`.git`) stay writable inside, but the entry itself cannot be renamed or removed.
  if (profile.pinned.length > 0)
    lines.push(
      `(deny file-write-unlink ${profile.pinned.map((path) => `(literal ${quote(path)})`).join(' ')})`,
    )
  if (profile.hidden.length > 0)
    lines.push(
      `(deny file-read* file-write* ${profile.hidden.map((entry) => `(${entry.kind === 'dir' ? 'subpath' : 'literal'} ${quote(entry.path)})`).join(' ')})`,
    )
  if (!profile.network) {
    lines.push('(deny network-outbound)')
    lines.push('(allow network-outbound (remote ip "localhost:*") (remote unix-socket))')
  }
  return `${lines.join('\n')}\n`
}

/** The `sandbox-exec` argv that runs `argv` under `profile` (pure); `env` sets TMPDIR inside. */
export function planSeatbelt(
  profile: SandboxProfile,
  argv: readonly string[],
  sandboxExec = SANDBOX_EXEC,
): string[] {
  return [
    sandboxExec,
    '-p',
    seatbeltProfileText(profile),
    '/usr/bin/env',
    `TMPDIR=${profile.tmpDir}`,
    ...argv,
  ]
}

/** An SBPL string literal. */
function quote(path: string): string {
  return `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}
