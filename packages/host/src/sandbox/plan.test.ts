import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { planBubblewrap } from './bwrap-plan.js'
import type { SandboxProfile } from './profile.js'
import { resolveProfile } from './resolve-profile.js'
import { sandboxModeFor } from './sandbox.js'
import { planSeatbelt, seatbeltProfileText } from './seatbelt-plan.js'

const profile: SandboxProfile = {
  mode: 'write',
  writable: ['/work/p', '/home/u/.npm', '/tmp/sbx'],
  readOnly: [
    { path: '/work/p/.git/hooks', kind: 'dir' },
    { path: '/work/p/.git/config', kind: 'file' },
  ],
  placeholders: [{ path: '/work/p/.mcp.json', kind: 'file' }],
  pinned: ['/work/p/.git'],
  hidden: [
    { path: '/home/u/.ssh', kind: 'dir' },
    { path: '/home/u/.netrc', kind: 'file' },
  ],
  tmpDir: '/tmp/sbx',
  network: false,
}

describe('sandboxModeFor', () => {
  it('confines what the policy auto-allowed, approved commands per [shell.sandbox], nothing without a backend', () => {
    expect(sandboxModeFor({ available: true, granted: 'read-only', enabled: false })).toBe('read-only')
    expect(sandboxModeFor({ available: true, granted: 'write', enabled: false })).toBe('write')
    expect(sandboxModeFor({ available: true, enabled: true })).toBe('write')
    expect(sandboxModeFor({ available: true, enabled: false })).toBeUndefined()
    expect(sandboxModeFor({ available: false, granted: 'read-only', enabled: true })).toBeUndefined()
  })
})

describe('planBubblewrap', () => {
  it('mounts / read-only, binds writable folders parents first, then protected, placeholders and secrets', () => {
    const argv = planBubblewrap(profile, ['bash', '-c', 'make'], '/work/p/src', '/usr/bin/bwrap')
    expect(argv.join(' ')).toBe(
      [
        '/usr/bin/bwrap --ro-bind / / --dev /dev --proc /proc',
        '--unshare-pid --unshare-ipc --unshare-uts --unshare-net --die-with-parent --new-session --cap-drop ALL',
        '--bind /work/p /work/p --bind /tmp/sbx /tmp/sbx --bind /home/u/.npm /home/u/.npm --bind /work/p/.git /work/p/.git',
        '--ro-bind /work/p/.git/hooks /work/p/.git/hooks --ro-bind /work/p/.git/config /work/p/.git/config',
        '--ro-bind /dev/null /work/p/.mcp.json',
        '--tmpfs /home/u/.ssh --remount-ro /home/u/.ssh --ro-bind /dev/null /home/u/.netrc',
        '--setenv TMPDIR /tmp/sbx --chdir /work/p/src -- bash -c make',
      ].join(' '),
    )
  })
  it('keeps the network when the profile allows it', () => {
    expect(planBubblewrap({ ...profile, network: true }, ['true'], '/')).not.toContain('--unshare-net')
  })
})

describe('seatbeltProfileText', () => {
  it('denies writes but for the writable folders, re-denies protected paths, hides secrets, localhost only', () => {
    expect(seatbeltProfileText(profile)).toBe(
      [
        '(version 1)',
        '(allow default)',
        '(deny file-write*)',
        '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper")',
        '  (regex #"^/dev/tty") (regex #"^/dev/fd/") (regex #"^/dev/ptmx$") (regex #"^/dev/ttys"))',
        '(allow file-write* (subpath "/work/p") (subpath "/home/u/.npm") (subpath "/tmp/sbx"))',
        '(deny file-write* (literal "/work/p/.git/hooks") (subpath "/work/p/.git/hooks") (literal "/work/p/.git/config") (subpath "/work/p/.git/config") (literal "/work/p/.mcp.json") (subpath "/work/p/.mcp.json"))',
        '(deny file-write-unlink (literal "/work/p/.git"))',
        '(deny file-read* file-write* (subpath "/home/u/.ssh") (literal "/home/u/.netrc"))',
        '(deny network-outbound)',
        '(allow network-outbound (remote ip "localhost:*") (remote unix-socket))',
        '',
      ].join('\n'),
    )
  })
  it('quotes paths and leaves the network alone when allowed', () => {
    const text = seatbeltProfileText({ ...profile, writable: ['/a "b"\\c'], network: true })
    expect(text).toContain('(subpath "/a \\"b\\"\\\\c")')
    expect(text).not.toContain('network-outbound')
  })
  it('runs the command through sandbox-exec with TMPDIR set', () => {
    const argv = planSeatbelt(profile, ['/bin/bash', '-c', 'ls'])
    expect(argv[0]).toBe('/usr/bin/sandbox-exec')
    expect(argv[1]).toBe('-p')
    expect(argv.slice(3)).toEqual(['/usr/bin/env', 'TMPDIR=/tmp/sbx', '/bin/bash', '-c', 'ls'])
  })
})

describe('resolveProfile', () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'ze-profile-')))
  afterAll(() => rmSync(base, { recursive: true, force: true }))
  const home = join(base, 'home')
  const root = join(base, 'p')
  for (const dir of [
    join(home, '.ssh'),
    join(home, '.cache', 'go-build'),
    join(root, '.git', 'hooks'),
    join(root, '.claude'),
  ])
    mkdirSync(dir, { recursive: true })
  writeFileSync(join(root, '.git', 'config'), '[core]\n\thooksPath = .husky\n')
  const request = {
    root,
    additionalDirectories: [],
    home,
    tmpDir: join(base, 'tmp'),
    allowNetwork: true,
    env: {},
  }
  mkdirSync(join(base, 'tmp'))

  it('write: root, existing caches and temp writable; git and harness paths protected or held by placeholders', async () => {
    const resolved = await resolveProfile({ ...request, mode: 'write' })
    expect(resolved.writable).toEqual([root, join(home, '.cache', 'go-build'), join(base, 'tmp')])
    expect(resolved.readOnly).toEqual([
      { path: join(root, '.claude'), kind: 'dir' },
      { path: join(root, '.git', 'hooks'), kind: 'dir' },
      { path: join(root, '.git', 'config'), kind: 'file' },
    ])
    expect(resolved.placeholders).toEqual([
      { path: join(root, '.z-engine'), kind: 'dir' },
      { path: join(root, '.mcp.json'), kind: 'file' },
      { path: join(root, '.git', 'info'), kind: 'dir' },
      { path: join(root, '.husky'), kind: 'dir' },
    ])
    expect(resolved.pinned).toEqual([join(root, '.git')])
    expect(resolved.hidden).toEqual([{ path: join(home, '.ssh'), kind: 'dir' }])
    expect(resolved.network).toBe(true)
  })
  it('read-only: only temp is writable and the network is off', async () => {
    const resolved = await resolveProfile({ ...request, mode: 'read-only' })
    expect(resolved.writable).toEqual([join(base, 'tmp')])
    expect(resolved.network).toBe(false)
    expect(resolved.hidden).toHaveLength(1)
  })
  it('moved caches follow their variable', async () => {
    const moved = join(base, 'gocache')
    mkdirSync(moved)
    const resolved = await resolveProfile({ ...request, mode: 'write', env: { GOCACHE: moved } })
    expect(resolved.writable).toContain(moved)
    expect(resolved.writable).not.toContain(join(home, '.cache', 'go-build'))
  })
})
