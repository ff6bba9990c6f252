import { sep } from 'node:path'
import type { SandboxProfile } from './profile.js'

/**
 * The bubblewrap argv that runs `argv` under `profile` in `cwd` (pure). The whole file system is
 * mounted read-only, then writable folders are bound over it (parents first), then protected paths
 * read-only again, then secrets covered. All capabilities are dropped (as root, bubblewrap would
 * otherwise keep them and `mount -o remount,rw /` would undo everything); the command gets its own
 * pid namespace, so nothing it starts outlives it, and dies with the engine.
 */
export function planBubblewrap(
  profile: SandboxProfile,
  argv: readonly string[],
  cwd: string,
  bwrap = 'bwrap',
): string[] {
  const args = [bwrap, '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc']
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts')
  if (!profile.network) args.push('--unshare-net')
  args.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL')
  for (const folder of byDepth([...profile.writable, ...profile.pinned])) args.push('--bind', folder, folder)
  for (const entry of byDepth(profile.readOnly.map((entry) => entry.path)))
    args.push('--ro-bind', entry, entry)
  for (const entry of profile.placeholders) {
    if (entry.kind === 'dir') args.push('--tmpfs', entry.path, '--remount-ro', entry.path)
    else args.push('--ro-bind', '/dev/null', entry.path)
  }
  for (const entry of profile.hidden) {
    if (entry.kind === 'dir') args.push('--tmpfs', entry.path, '--remount-ro', entry.path)
    else args.push('--ro-bind', '/dev/null', entry.path)
  }
  args.push('--setenv', 'TMPDIR', profile.tmpDir, '--chdir', cwd, '--', ...argv)
  return args
}

/** Parents before children (a later bind over a parent would hide the child's). Stable otherwise. */
function byDepth(paths: readonly string[]): string[] {
  const depth = (path: string) => path.split(sep).length
  return [...new Set(paths)].sort((a, b) => depth(a) - depth(b))
}
