import { sep } from 'node:path'
import type { SandboxProfile, SystemEntry } from './profile.js'

/** The fd bubblewrap reads the seccomp program from: above the shell wrapper's report and gate (3, 4). */
const SECCOMP_FD = 9

/** One mount of the view, in the order bubblewrap must make it (see {@link planBubblewrap}). */
type Mount =
  | { op: 'ro' | 'rw'; path: string }
  | { op: 'tmpfs' | 'mask-dir' | 'mask-file'; path: string }
  | { op: 'symlink'; path: string; target: string }
  | { op: 'file'; path: string; source: string }

/** Within one depth: the folder first, then what protects or masks parts of it. */
const ORDER: Readonly<Record<Mount['op'], number>> = {
  symlink: 0,
  tmpfs: 1,
  ro: 2,
  rw: 2,
  file: 2,
  'mask-dir': 3,
  'mask-file': 3,
}

/**
 * The bubblewrap argv that runs `argv` under `profile` in `cwd` (pure). The view starts from
 * nothing (`--tmpfs /`): the system folders and the allowed `/etc` entries read-only, a minimal
 * `/dev` and the sandbox's own `/proc`, an empty private `/tmp` and an empty home, then the readable
 * and writable folders, the protected paths read-only again and the masks, parents before children;
 * finally `/` itself is made read-only, so nothing can be created beside the mounts. No `/run`,
 * `/var` or other part of the machine is there, so no unix socket outside the view can be reached
 * (`--unshare-net` stops TCP and abstract sockets). All capabilities are dropped (as root,
 * bubblewrap would otherwise keep them and `mount` could undo everything); the command gets its own
 * pid namespace, so nothing it starts outlives it, and dies with the engine.
 *
 * With `seccomp` (the file of the `unixSocketFilter` program), `/bin/sh` opens it on fd
 * {@link SECCOMP_FD} and execs bubblewrap with `--seccomp`, which loads it and closes the fd: every
 * spawner of the argv gets the filter, and a missing file means nothing runs.
 */
export function planBubblewrap(
  profile: SandboxProfile,
  argv: readonly string[],
  cwd: string,
  bwrap = 'bwrap',
  seccomp?: string,
): string[] {
  const args =
    seccomp === undefined
      ? [bwrap]
      : ['/bin/sh', '-c', `exec "$@" ${SECCOMP_FD}<"$0"`, seccomp, bwrap, '--seccomp', String(SECCOMP_FD)]
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts')
  if (!profile.network) args.push('--unshare-net')
  args.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL')
  args.push('--tmpfs', '/')
  for (const entry of [...profile.system, ...profile.etc]) args.push(...systemMount(entry))
  args.push('--dev', '/dev', '--proc', '/proc')
  const mounts: Mount[] = [
    { op: 'tmpfs', path: '/tmp' },
    { op: 'tmpfs', path: profile.home },
    ...profile.readable.map((path): Mount => ({ op: 'ro', path })),
    ...profile.files.map((file): Mount => ({ op: 'file', path: file.path, source: file.source })),
    ...[...profile.writable, ...profile.pinned].map((path): Mount => ({ op: 'rw', path })),
    ...profile.readOnly.map((entry): Mount => ({ op: 'ro', path: entry.path })),
    // A seeded placeholder (git's `commondir` reading `.`) was written by the engine: bound over itself.
    ...profile.placeholders.map(
      (entry): Mount =>
        entry.seed !== undefined
          ? { op: 'ro', path: entry.path }
          : { op: entry.kind === 'dir' ? 'mask-dir' : 'mask-file', path: entry.path },
    ),
    ...profile.hidden.map(
      (entry): Mount => ({ op: entry.kind === 'dir' ? 'mask-dir' : 'mask-file', path: entry.path }),
    ),
  ]
  for (const mount of ordered(mounts)) args.push(...mountArgs(mount))
  args.push('--remount-ro', '/')
  args.push('--setenv', 'TMPDIR', profile.tmpDir, '--chdir', cwd, '--', ...argv)
  return args
}

function systemMount(entry: SystemEntry): string[] {
  return entry.kind === 'symlink'
    ? ['--symlink', entry.target, entry.path]
    : ['--ro-bind', entry.path, entry.path]
}

function mountArgs(mount: Mount): string[] {
  switch (mount.op) {
    case 'ro':
      return ['--ro-bind', mount.path, mount.path]
    case 'rw':
      return ['--bind', mount.path, mount.path]
    case 'tmpfs':
      return ['--tmpfs', mount.path]
    case 'mask-dir':
      return ['--tmpfs', mount.path, '--remount-ro', mount.path]
    case 'mask-file':
      return ['--ro-bind', '/dev/null', mount.path]
    case 'symlink':
      return ['--symlink', mount.target, mount.path]
    case 'file':
      return ['--ro-bind', mount.source, mount.path]
    default: {
      const unreachable: never = mount
      throw new Error(`unknown mount ${JSON.stringify(unreachable)}`)
    }
  }
}

/**
 * Parents before children (a later mount over a parent would hide the child's), then by
 * {@link ORDER}; the same path mounted twice keeps its last mount (a protected path re-bound
 * read-only inside a writable folder). Stable otherwise.
 */
function ordered(mounts: readonly Mount[]): Mount[] {
  const depth = (path: string) => (path === sep ? 0 : path.split(sep).length)
  const last = new Map<string, Mount>()
  for (const mount of mounts) {
    const previous = last.get(mount.path)
    if (previous === undefined || ORDER[mount.op] >= ORDER[previous.op]) last.set(mount.path, mount)
  }
  return [...last.values()]
    .map((mount, index) => ({ mount, index }))
    .sort(
      (a, b) =>
        depth(a.mount.path) - depth(b.mount.path) ||
        ORDER[a.mount.op] - ORDER[b.mount.op] ||
        a.index - b.index,
    )
    .map(({ mount }) => mount)
}
