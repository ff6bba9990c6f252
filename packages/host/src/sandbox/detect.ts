import { execFile } from 'node:child_process'
import { access, constants } from 'node:fs/promises'
import { delimiter, join } from 'node:path'
import { SANDBOX_EXEC } from './seatbelt-plan.js'

/** The confinement this machine offers; `none` says why and how to get one. */
export type SandboxBackend =
  | { kind: 'bubblewrap'; path: string }
  | { kind: 'seatbelt'; path: string }
  | { kind: 'none'; reason: string; install: string }

/** How to detect: the platform and PATH to look in (defaults: this process's). */
export interface DetectOptions {
  platform?: NodeJS.Platform
  path?: string
}

const LINUX_INSTALL =
  'install bubblewrap (Debian/Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap) and make sure unprivileged user namespaces are allowed (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 an AppArmor profile for bwrap)'

const cache = new Map<string, Promise<SandboxBackend>>()

/**
 * Finds a sandbox backend and proves it can start a confined process (a `bwrap` on PATH that the
 * kernel refuses to run is no backend). Cached per platform and PATH for the process's life.
 */
export function detectSandboxBackend(options: DetectOptions = {}): Promise<SandboxBackend> {
  const platform = options.platform ?? process.platform
  const path = options.path ?? process.env.PATH ?? ''
  const key = `${platform}\0${path}`
  let found = cache.get(key)
  if (!found) {
    found = detect(platform, path)
    cache.set(key, found)
  }
  return found
}

async function detect(platform: NodeJS.Platform, path: string): Promise<SandboxBackend> {
  if (platform === 'darwin') {
    if (!(await isExecutable(SANDBOX_EXEC)))
      return {
        kind: 'none',
        reason: `${SANDBOX_EXEC} is missing`,
        install: 'sandbox-exec ships with macOS; restore it',
      }
    const tried = await tryRun(SANDBOX_EXEC, ['-p', '(version 1)(allow default)', '/usr/bin/true'])
    return tried === undefined
      ? { kind: 'seatbelt', path: SANDBOX_EXEC }
      : {
          kind: 'none',
          reason: `sandbox-exec cannot start a process: ${tried}`,
          install: 'check that sandbox-exec works',
        }
  }
  if (platform !== 'linux')
    return {
      kind: 'none',
      reason: `no sandbox backend exists for ${platform}`,
      install: 'run on Linux or macOS',
    }
  const bwrap = await findOnPath('bwrap', path)
  if (bwrap === undefined)
    return { kind: 'none', reason: 'bubblewrap (bwrap) is not installed', install: LINUX_INSTALL }
  const tried = await tryRun(bwrap, [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--unshare-pid',
    '--unshare-net',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--',
    'true',
  ])
  return tried === undefined
    ? { kind: 'bubblewrap', path: bwrap }
    : { kind: 'none', reason: `${bwrap} cannot start a sandbox: ${tried}`, install: LINUX_INSTALL }
}

/** Runs a probe; undefined when it exited 0, else the first line of why not. */
function tryRun(file: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000, env: { PATH: '/usr/bin:/bin' } }, (error, _stdout, stderr) => {
      if (!error) return resolve(undefined)
      const line = String(stderr).trim().split('\n')[0]
      resolve(line !== undefined && line !== '' ? line : error.message)
    })
  })
}

async function findOnPath(name: string, path: string): Promise<string | undefined> {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue
    const candidate = join(dir, name)
    if (await isExecutable(candidate)) return candidate
  }
  return undefined
}

async function isExecutable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  )
}
