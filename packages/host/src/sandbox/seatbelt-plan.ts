import type { SandboxProfile } from './profile.js'

/** Where macOS keeps the seatbelt launcher. */
export const SANDBOX_EXEC = '/usr/bin/sandbox-exec'

/**
 * The seatbelt (SBPL) profile text for `profile` (pure). Later rules win in SBPL, so the order is:
 * everything allowed, then the reads taken away (every home under `/Users`, the user's home, the
 * run folders where sockets live, mounted volumes) and given back for what the view shows (the
 * project, the readable and writable folders, temp), every write denied, the writable folders (and
 * the devices a shell needs) allowed, protected paths denied again (existing or not: seatbelt needs
 * no placeholder), masked paths unreadable, unix-socket connects denied (a socket outside the view
 * is how an ssh agent or docker is reached), and without the network only localhost reachable.
 * Seatbelt filters operations rather than building a view, so system folders stay readable.
 */
export function seatbeltProfileText(profile: SandboxProfile): string {
  const lines = ['(version 1)', '(allow default)']
  const away = unique(['/Users', profile.home, '/private/var/run', '/var/run', '/Volumes'])
  lines.push(`(deny file-read* ${away.map((path) => `(subpath ${quote(path)})`).join(' ')})`)
  const shown = unique([...profile.readable, ...profile.writable])
  if (shown.length > 0)
    lines.push(`(allow file-read* ${shown.map((path) => `(subpath ${quote(path)})`).join(' ')})`)
  lines.push(`(allow file-read* (literal ${quote(profile.home)}))`)
  for (const file of profile.files) lines.push(`(allow file-read* (literal ${quote(file.source)}))`)
  lines.push('(deny file-write*)')
  lines.push('(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper")')
  lines.push('  (regex #"^/dev/tty") (regex #"^/dev/fd/") (regex #"^/dev/ptmx$") (regex #"^/dev/ttys"))')
  if (profile.writable.length > 0)
    lines.push(`(allow file-write* ${profile.writable.map((path) => `(subpath ${quote(path)})`).join(' ')})`)
  const protectedPaths = [
    ...[...profile.readOnly, ...profile.placeholders].map((entry) => entry.path),
    ...profile.removeAfter,
  ]
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
  lines.push('(deny network-outbound (remote unix-socket))')
  if (!profile.network) {
    lines.push('(deny network-outbound)')
    lines.push('(allow network-outbound (remote ip "localhost:*"))')
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
    // Seatbelt cannot put a file into the home: git reads the prepared identity from here instead.
    ...profile.files
      .filter((file) => file.path.endsWith('/.gitconfig'))
      .map((file) => `GIT_CONFIG_GLOBAL=${file.source}`),
    ...argv,
  ]
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)]
}

/** An SBPL string literal. */
function quote(path: string): string {
  return `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}
