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
  system: [
    { kind: 'dir', path: '/usr' },
    { kind: 'symlink', path: '/bin', target: 'usr/bin' },
  ],
  etc: [
    { kind: 'dir', path: '/etc/passwd' },
    { kind: 'symlink', path: '/etc/localtime', target: '/usr/share/zoneinfo/UTC' },
  ],
  home: '/home/u',
  files: [{ source: '/tmp/view/gitconfig', path: '/home/u/.gitconfig' }],
  readable: ['/home/u/.rustup', '/opt/node'],
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
  removeAfter: ['/work/p/rust-toolchain.toml'],
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
  it('builds the view from nothing: system folders, /etc entries, empty /tmp and home, then binds parents first, masks last', () => {
    const argv = planBubblewrap(profile, ['bash', '-c', 'make'], '/work/p/src', '/usr/bin/bwrap')
    expect(argv.join(' ')).toBe(
      [
        '/usr/bin/bwrap --unshare-pid --unshare-ipc --unshare-uts --unshare-net --die-with-parent --new-session --cap-drop ALL',
        '--tmpfs / --ro-bind /usr /usr --symlink usr/bin /bin',
        '--ro-bind /etc/passwd /etc/passwd --symlink /usr/share/zoneinfo/UTC /etc/localtime',
        '--dev /dev --proc /proc',
        '--tmpfs /tmp --tmpfs /home/u --ro-bind /opt/node /opt/node --bind /work/p /work/p --bind /tmp/sbx /tmp/sbx',
        '--ro-bind /home/u/.rustup /home/u/.rustup --ro-bind /tmp/view/gitconfig /home/u/.gitconfig',
        '--bind /home/u/.npm /home/u/.npm --bind /work/p/.git /work/p/.git',
        '--ro-bind /dev/null /work/p/.mcp.json',
        '--tmpfs /home/u/.ssh --remount-ro /home/u/.ssh --ro-bind /dev/null /home/u/.netrc',
        '--ro-bind /work/p/.git/hooks /work/p/.git/hooks --ro-bind /work/p/.git/config /work/p/.git/config',
        '--remount-ro /',
        '--setenv TMPDIR /tmp/sbx --chdir /work/p/src -- bash -c make',
      ].join(' '),
    )
  })
  it('with a seccomp file, /bin/sh opens it on fd 9 and execs bubblewrap with --seccomp 9', () => {
    const argv = planBubblewrap(profile, ['true'], '/', '/usr/bin/bwrap', '/tmp/view/no-unix-sockets.bpf')
    expect(argv.slice(0, 8)).toEqual([
      '/bin/sh',
      '-c',
      'exec "$@" 9<"$0"',
      '/tmp/view/no-unix-sockets.bpf',
      '/usr/bin/bwrap',
      '--seccomp',
      '9',
      '--unshare-pid',
    ])
    expect(argv.slice(-2)).toEqual(['--', 'true'])
  })
  it('keeps the network when the profile allows it', () => {
    expect(planBubblewrap({ ...profile, network: true }, ['true'], '/')).not.toContain('--unshare-net')
  })
})

describe('seatbeltProfileText', () => {
  it('takes reads of homes and run folders away and gives back the view; writes only to writable folders; masks; no unix sockets; localhost only', () => {
    expect(seatbeltProfileText(profile)).toBe(
      [
        '(version 1)',
        '(allow default)',
        '(deny file-read* (subpath "/Users") (subpath "/home/u") (subpath "/private/var/run") (subpath "/var/run") (subpath "/Volumes"))',
        '(allow file-read* (subpath "/home/u/.rustup") (subpath "/opt/node") (subpath "/work/p") (subpath "/home/u/.npm") (subpath "/tmp/sbx"))',
        '(allow file-read* (literal "/home/u"))',
        '(allow file-read* (literal "/tmp/view/gitconfig"))',
        '(deny file-write*)',
        '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper")',
        '  (regex #"^/dev/tty") (regex #"^/dev/fd/") (regex #"^/dev/ptmx$") (regex #"^/dev/ttys"))',
        '(allow file-write* (subpath "/work/p") (subpath "/home/u/.npm") (subpath "/tmp/sbx"))',
        '(deny file-write* (literal "/work/p/.git/hooks") (subpath "/work/p/.git/hooks") (literal "/work/p/.git/config") (subpath "/work/p/.git/config") (literal "/work/p/.mcp.json") (subpath "/work/p/.mcp.json") (literal "/work/p/rust-toolchain.toml") (subpath "/work/p/rust-toolchain.toml"))',
        '(deny file-write-unlink (literal "/work/p/.git"))',
        '(deny file-read* file-write* (subpath "/home/u/.ssh") (literal "/home/u/.netrc"))',
        '(deny network-outbound (remote unix-socket))',
        '(deny network-outbound)',
        '(allow network-outbound (remote ip "localhost:*"))',
        '',
      ].join('\n'),
    )
  })
  it('quotes paths; with the network allowed only unix sockets stay denied', () => {
    const text = seatbeltProfileText({ ...profile, writable: ['/a "b"\\c'], network: true })
    expect(text).toContain('(subpath "/a \\"b\\"\\\\c")')
    expect(text).toContain('(deny network-outbound (remote unix-socket))')
    expect(text).not.toContain('(deny network-outbound)\n')
  })
  it('runs the command through sandbox-exec with TMPDIR and the prepared git identity set', () => {
    const argv = planSeatbelt(profile, ['/bin/bash', '-c', 'ls'])
    expect(argv[0]).toBe('/usr/bin/sandbox-exec')
    expect(argv[1]).toBe('-p')
    expect(argv.slice(3)).toEqual([
      '/usr/bin/env',
      'TMPDIR=/tmp/sbx',
      'GIT_CONFIG_GLOBAL=/tmp/view/gitconfig',
      '/bin/bash',
      '-c',
      'ls',
    ])
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
    join(home, '.rustup'),
    join(home, '.cargo', 'bin'),
    join(home, '.nvm', 'versions', 'node', 'v20', 'bin'),
    join(home, '.nvm', 'versions', 'node', 'v20', 'lib'),
    join(home, '.nvm', 'versions', 'node', 'v20', 'notes'),
    join(root, '.git', 'hooks'),
    join(root, '.claude'),
    join(root, 'secrets'),
  ])
    mkdirSync(dir, { recursive: true })
  writeFileSync(join(root, '.git', 'config'), '[core]\n\thooksPath = .husky\n')
  writeFileSync(join(root, '.env'), 'TOKEN=1\n')
  writeFileSync(join(root, '.nvmrc'), '20\n')
  const request = {
    root,
    additionalDirectories: [],
    home,
    tmpDir: join(base, 'tmp'),
    allowNetwork: true,
    env: {
      PATH: [
        join(home, '.cargo', 'bin'),
        join(home, '.nvm', 'versions', 'node', 'v20', 'bin'),
        '/usr/bin',
        home,
      ].join(':'),
    },
    execPath: '/usr/bin/node',
    writePaths: ['~/.cache/go-build', '~/.missing'],
    readPaths: ['~/.rustup'],
    masked: [join(root, '.env'), join(root, 'secrets'), join(root, 'absent')],
  }
  mkdirSync(join(base, 'tmp'))

  it('write: root, write_paths and temp writable; git, harness and toolchain paths protected; masks inside the view', async () => {
    const resolved = await resolveProfile({ ...request, mode: 'write' })
    expect(resolved.home).toBe(home)
    expect(resolved.writable).toEqual([root, join(home, '.cache', 'go-build'), join(base, 'tmp')])
    // PATH folders: directly in the home only the bin folder; deeper the install prefix's install
    // folders (bin, lib…, not the rest of it); never the home.
    expect(resolved.readable).toEqual([
      join(home, '.rustup'),
      join(home, '.cargo', 'bin'),
      join(home, '.nvm', 'versions', 'node', 'v20', 'bin'),
      join(home, '.nvm', 'versions', 'node', 'v20', 'lib'),
    ])
    expect(resolved.readOnly).toEqual([
      { path: join(root, '.claude'), kind: 'dir' },
      { path: join(root, '.git', 'hooks'), kind: 'dir' },
      { path: join(root, '.git', 'config'), kind: 'file' },
      { path: join(root, '.nvmrc'), kind: 'file' },
    ])
    // Git's other control files too (issue 34): commondir is seeded with `.`, which git reads as "here".
    expect(resolved.placeholders).toEqual([
      { path: join(root, '.z-engine'), kind: 'dir' },
      { path: join(root, '.mcp.json'), kind: 'file' },
      { path: join(root, '.husky'), kind: 'dir' },
      { path: join(root, '.vscode'), kind: 'dir' },
      { path: join(root, '.idea'), kind: 'dir' },
      { path: join(root, '.run'), kind: 'dir' },
      { path: join(root, '.git', 'info'), kind: 'dir' },
      { path: join(root, '.git', 'commondir'), kind: 'file', seed: '.\n' },
      { path: join(root, '.git', 'config.worktree'), kind: 'file' },
      { path: join(root, '.git', 'modules'), kind: 'dir' },
      { path: join(root, '.git', 'worktrees'), kind: 'dir' },
    ])
    expect(resolved.removeAfter).toContain(join(root, 'rust-toolchain.toml'))
    expect(resolved.removeAfter).toContain(join(root, '.cargo'))
    expect(resolved.removeAfter).not.toContain(join(root, '.nvmrc'))
    expect(resolved.pinned).toEqual([join(root, '.git')])
    // ~/.ssh is outside the view (the home is empty); the deny-ruled paths inside it are masked.
    expect(resolved.hidden).toEqual([
      { path: join(root, '.env'), kind: 'file' },
      { path: join(root, 'secrets'), kind: 'dir' },
    ])
    expect(resolved.system.map((entry) => entry.path)).toContain('/usr')
    expect(resolved.etc.map((entry) => entry.path)).toContain('/etc/passwd')
    expect(resolved.etc.map((entry) => entry.path)).not.toContain('/etc/shadow')
    expect(resolved.network).toBe(true)
  })
  it('read-only: the project, read and write paths readable; only temp is writable and the network is off', async () => {
    const resolved = await resolveProfile({ ...request, mode: 'read-only' })
    expect(resolved.writable).toEqual([join(base, 'tmp')])
    expect(resolved.readable.slice(0, 3)).toEqual([
      root,
      join(home, '.rustup'),
      join(home, '.cache', 'go-build'),
    ])
    expect(resolved.network).toBe(false)
    expect(resolved.hidden).toHaveLength(2)
  })
  it('a bound home keeps its secrets masked', async () => {
    mkdirSync(join(home, '.m2'), { recursive: true })
    writeFileSync(join(home, '.m2', 'settings.xml'), '<password/>')
    writeFileSync(join(home, '.pgpass'), 'db:5432:*:u:pw')
    const resolved = await resolveProfile({ ...request, mode: 'read-only', readPaths: ['~'] })
    expect(resolved.readable).toContain(home)
    expect(resolved.hidden).toContainEqual({ path: join(home, '.ssh'), kind: 'dir' })
    expect(resolved.hidden).toContainEqual({ path: join(home, '.m2', 'settings.xml'), kind: 'file' })
    expect(resolved.hidden).toContainEqual({ path: join(home, '.pgpass'), kind: 'file' })
  })
  it("programs: a server's package folder and a pnpm store above it are shown; data files and the home are not", async () => {
    const tools = join(base, 'tools')
    const pkg = join(tools, 'packages', 'server')
    mkdirSync(join(pkg, 'dist'), { recursive: true })
    mkdirSync(join(tools, 'node_modules', '.pnpm'), { recursive: true })
    writeFileSync(join(pkg, 'package.json'), '{}')
    writeFileSync(join(pkg, 'dist', 'index.js'), '')
    writeFileSync(join(home, 'token.json'), '{}')
    writeFileSync(join(home, 'run.sh'), '')
    const resolved = await resolveProfile({
      ...request,
      mode: 'write',
      programs: [
        '/usr/bin/node',
        join(pkg, 'dist', 'index.js'),
        join(home, 'token.json'),
        join(home, 'run.sh'),
      ],
    })
    expect(resolved.readable).toContain(pkg)
    expect(resolved.readable).toContain(join(tools, 'node_modules'))
    // A script directly in the home shows only itself; a data file not at all; the home never.
    expect(resolved.readable).toContain(join(home, 'run.sh'))
    expect(resolved.readable).not.toContain(join(home, 'token.json'))
    expect(resolved.readable).not.toContain(home)
  })
})
