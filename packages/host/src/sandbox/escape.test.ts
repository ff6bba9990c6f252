/**
 * The escape suite: real bubblewrap, a real git repository, a fake HOME with secrets, and every
 * way out we know of. Each test checks the outside world afterwards, not only the exit code.
 * Skipped only when bwrap is not installed at all (and never in CI, where setup.sh installs it).
 */
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createConnection, createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findShell, runShellCommand } from '../process/shell.js'
import { detectSandboxBackend } from './detect.js'
import type { SandboxMode } from './profile.js'
import { Sandbox } from './sandbox.js'

// The planted secrets carry a word made at run time, so a search of the view finds only them (never
// this file or a dependency that mentions a secret, when the checkout itself lives under /tmp).
const SECRET = `SECRET${randomUUID().replaceAll('-', '')}`

const bwrapInstalled = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'].some((path) =>
  existsSync(path),
)
const run = bwrapInstalled || process.env.CI !== undefined

let base: string
let home: string
let project: string
let outside: string
let env: Record<string, string>
let engineData: string
let sandbox: Sandbox
let networked: Sandbox
/** A sandbox whose settings bind the whole home read-only (`read_paths = ["~"]`). */
let homeBound: Sandbox

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env, stdio: 'pipe' }).toString()

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ze-escape-')))
  home = join(base, 'home')
  project = join(base, 'project')
  outside = join(base, 'outside')
  engineData = join(base, 'engine-data')
  for (const dir of [
    home,
    project,
    outside,
    join(home, '.ssh'),
    join(home, '.aws'),
    join(home, '.npm'),
    join(home, '.cargo'),
    join(home, '.config', 'z-engine'),
    join(home, '.local', 'share', 'z-engine', 'sessions', 'other'),
    join(engineData, 'sessions', 'other'),
  ])
    mkdirSync(dir, { recursive: true })
  writeFileSync(join(home, '.ssh', 'id_ed25519'), `PRIVATE-KEY-${SECRET}\n`)
  writeFileSync(join(home, '.aws', 'credentials'), `aws_secret_access_key=AWS-${SECRET}\n`)
  writeFileSync(join(home, '.netrc'), `machine example.com password NETRC-${SECRET}\n`)
  // The red team's reads (issue 34, class 2): registry tokens, a token in the git config, shell
  // history, the engine's own config and other projects' session logs.
  writeFileSync(join(home, '.npmrc'), `//registry.npmjs.org/:_authToken=NPMRC-${SECRET}\n`)
  writeFileSync(join(home, '.pypirc'), `[pypi]\npassword = PYPIRC-${SECRET}\n`)
  writeFileSync(join(home, '.cargo', 'credentials.toml'), `[registry]\ntoken = "CARGO-${SECRET}"\n`)
  writeFileSync(
    join(home, '.gitconfig'),
    `[user]\n\tname = Confined Tester\n\temail = t@example.com\n[http]\n\textraHeader = Authorization: GITCONFIG-${SECRET}\n`,
  )
  writeFileSync(join(home, '.bash_history'), `export TOKEN=HISTORY-${SECRET}\n`)
  writeFileSync(join(home, '.config', 'z-engine', 'settings.toml'), `# CONFIG-${SECRET}\n`)
  writeFileSync(
    join(home, '.local', 'share', 'z-engine', 'sessions', 'other', 'log.jsonl'),
    `LOG-${SECRET}\n`,
  )
  writeFileSync(join(engineData, 'sessions', 'other', 'log.jsonl'), `DATA-${SECRET}\n`)
  writeFileSync(join(outside, 'target.txt'), 'original\n')
  env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.com',
    GIT_CONFIG_NOSYSTEM: '1',
  }
  git(project, 'init', '-q', '-b', 'main')
  mkdirSync(join(project, '.claude'))
  writeFileSync(join(project, '.claude', 'settings.json'), '{}\n')
  mkdirSync(join(project, '.z-engine'))
  writeFileSync(join(project, '.z-engine', 'settings.toml'), '')
  writeFileSync(join(project, 'README.md'), 'hello\n')
  git(project, 'add', '.')
  git(project, 'commit', '-q', '-m', 'init')
  if (!run) return
  const backend = await detectSandboxBackend()
  if (backend.kind === 'none') throw new Error(`bwrap is installed but cannot start: ${backend.reason}`)
  const engineDirs = [join(home, '.config', 'z-engine'), engineData]
  sandbox = await Sandbox.create({
    backend,
    settings: { enabled: true, allowNetwork: false, writePaths: ['~/.npm'] },
    home,
    env,
    engineDirs,
  })
  networked = await Sandbox.create({ backend, settings: { enabled: true, allowNetwork: true }, home, env })
  homeBound = await Sandbox.create({
    backend,
    settings: { enabled: true, allowNetwork: false, readPaths: ['~', engineData] },
    home,
    env,
    engineDirs,
  })
})

afterAll(async () => {
  await sandbox?.dispose()
  await networked?.dispose()
  await homeBound?.dispose()
  rmSync(base, { recursive: true, force: true })
})

/** Runs `command` confined in `mode` with the project as root; returns exit code and output. */
async function confined(
  command: string,
  options: { mode?: SandboxMode; root?: string; cwd?: string; box?: Sandbox; masked?: string[] } = {},
) {
  const root = options.root ?? project
  const prepared = await (options.box ?? sandbox).prepare({
    root,
    additionalDirectories: [],
    granted: options.mode ?? 'write',
    ...(options.masked ? { masked: options.masked } : {}),
  })
  if (!prepared) throw new Error('expected a confined run')
  try {
    return await runShellCommand(command, {
      cwd: options.cwd ?? root,
      env,
      shellPath: findShell(env.PATH),
      wrap: prepared.wrap,
      timeoutMs: 20_000,
    })
  } finally {
    await prepared.release()
  }
}

const read = (path: string) => readFileSync(path, 'utf8')

describe.skipIf(!run)('sandbox escape suite (bubblewrap)', () => {
  it('cannot write outside the root (relative, absolute, via /proc/self/root)', async () => {
    const result = await confined(
      [
        'echo x > ../outside/new-relative',
        `echo x > ${outside}/new-absolute`,
        `echo changed > ${outside}/target.txt`,
        `echo x > /proc/self/root${outside}/new-proc`,
        `echo x > /proc/1/root${outside}/new-proc1`,
        `touch ${home}/new-home`,
      ].join('; '),
    )
    expect(result.output).toMatch(/Read-only file system|No such file or directory/)
    expect(readdirSync(outside)).toEqual(['target.txt'])
    expect(read(join(outside, 'target.txt'))).toBe('original\n')
    expect(existsSync(join(home, 'new-home'))).toBe(false)
  })

  it('cannot plant a git hook, change .git/config or .git/info, even by renaming .git away', async () => {
    const config = read(join(project, '.git', 'config'))
    const result = await confined(
      [
        'echo evil > .git/hooks/pre-commit',
        'printf "[core]\\n\\thooksPath = evil\\n" >> .git/config',
        'echo "*" > .git/info/exclude',
        'mv .git/hooks .git/hooks-old',
        'mv .git .git-old',
        'mkdir -p .git/hooks && echo evil > .git/hooks/post-checkout',
        'git config core.fsmonitor evil',
      ].join('; '),
    )
    expect(result.exitCode).not.toBe(0)
    expect(existsSync(join(project, '.git', 'hooks', 'pre-commit'))).toBe(false)
    expect(existsSync(join(project, '.git', 'hooks', 'post-checkout'))).toBe(false)
    expect(existsSync(join(project, '.git-old'))).toBe(false)
    expect(read(join(project, '.git', 'config'))).toBe(config)
    expect(read(join(project, '.git', 'info', 'exclude'))).not.toBe('*\n')
  })

  it('cannot change harness settings (.z-engine, .claude, .mcp.json), existing or not', async () => {
    const result = await confined(
      [
        'echo "[hooks]" >> .z-engine/settings.toml',
        'echo "{\\"hooks\\":1}" > .claude/settings.json',
        'mkdir -p .claude/agents && echo x > .claude/agents/evil.md',
        'echo "{}" > .mcp.json',
        'mv .claude .claude-old',
      ].join('; '),
    )
    expect(result.exitCode).not.toBe(0)
    expect(read(join(project, '.z-engine', 'settings.toml'))).toBe('')
    expect(read(join(project, '.claude', 'settings.json'))).toBe('{}\n')
    expect(existsSync(join(project, '.claude', 'agents'))).toBe(false)
    // The missing .mcp.json could not be created, and its placeholder was removed afterwards.
    expect(existsSync(join(project, '.mcp.json'))).toBe(false)
  })

  it('a command prepared while another holds a placeholder still runs after that one ends, and cannot create the path', async () => {
    // A's bubblewrap leaves the empty placeholder .mcp.json; B, planned while it exists, must not
    // bind it as an existing file, or A's cleanup pulls it away before B starts.
    const first = await sandbox.prepare({ root: project, additionalDirectories: [], granted: 'write' })
    if (!first) throw new Error('expected a confined run')
    const shell = findShell(env.PATH)
    const a = await runShellCommand('true', {
      cwd: project,
      env,
      shellPath: shell,
      wrap: first.wrap,
      timeoutMs: 20_000,
    })
    expect(a.exitCode).toBe(0)
    expect(existsSync(join(project, '.mcp.json'))).toBe(true)
    const second = await sandbox.prepare({ root: project, additionalDirectories: [], granted: 'write' })
    if (!second) throw new Error('expected a confined run')
    await first.release()
    try {
      const b = await runShellCommand('echo ran; echo "{}" > .mcp.json', {
        cwd: project,
        env,
        shellPath: shell,
        wrap: second.wrap,
        timeoutMs: 20_000,
      })
      expect(b.output).toContain('ran')
      expect(b.output).not.toMatch(/bwrap:/)
    } finally {
      await second.release()
    }
    expect(existsSync(join(project, '.mcp.json'))).toBe(false)
  })

  it('cannot write through symlinks or hard links', async () => {
    const result = await confined(
      [
        'ln -s ../outside out-link; echo x > out-link/via-symlink',
        'ln -s .git/hooks hooks-link; echo evil > hooks-link/pre-push',
        `ln ${outside}/target.txt hard-outside`,
        'ln .git/config hard-config && echo evil >> hard-config',
        'ln .claude/settings.json hard-settings && echo evil >> hard-settings',
      ].join('; '),
    )
    expect(result.output).toMatch(/cross-device link|Read-only file system/)
    expect(readdirSync(outside)).toEqual(['target.txt'])
    expect(existsSync(join(project, '.git', 'hooks', 'pre-push'))).toBe(false)
    expect(existsSync(join(project, 'hard-outside'))).toBe(false)
    expect(read(join(project, '.git', 'config'))).not.toContain('evil')
    expect(read(join(project, '.claude', 'settings.json'))).toBe('{}\n')
    rmSync(join(project, 'out-link'), { force: true })
    rmSync(join(project, 'hooks-link'), { force: true })
  })

  it('cannot undo the read-only mounts (remount, unmount)', async () => {
    const result = await confined(
      `mount -o remount,rw /; umount ${project}/.git/hooks; echo evil > ${outside}/after-mount`,
    )
    expect(result.exitCode).not.toBe(0)
    expect(readdirSync(outside)).toEqual(['target.txt'])
  })

  it('leaves no process behind: a background child dies with the command', async () => {
    const marker = `ze-escape-marker-${process.pid}-${Date.now()}`
    const result = await confined(
      `(exec -a ${marker} sleep 30) & nohup sh -c 'exec -a ${marker} sleep 30' >/dev/null 2>&1 & setsid sleep 30 & echo started`,
    )
    expect(result.output).toContain('started')
    const alive = () =>
      readdirSync('/proc')
        .filter((entry) => /^\d+$/.test(entry))
        .some((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)
          } catch {
            return false
          }
        })
    // A killed process dies when next scheduled, which a loaded machine may delay.
    await expect.poll(alive).toBe(false)
  })

  describe('network', () => {
    let server: Server
    let port = 0
    let connections = 0
    beforeAll(async () => {
      server = createServer((socket) => {
        connections += 1
        socket.end('pong\n')
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      port = (server.address() as { port: number }).port
    })
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

    it('allow_network = false: a loopback server outside the sandbox is unreachable', async () => {
      const before = connections
      const result = await confined(`exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`)
      expect(result.exitCode).not.toBe(0)
      expect(result.output).not.toContain('pong')
      expect(connections).toBe(before)
    })

    it('allow_network = true reaches it (the control)', async () => {
      const result = await confined(`exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`, { box: networked })
      expect(result.output).toContain('pong')
    })

    it('read-only commands never get the network, whatever allow_network says', async () => {
      const result = await confined(`exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`, {
        box: networked,
        mode: 'read-only',
      })
      expect(result.output).not.toContain('pong')
    })
  })

  describe('the view starts from nothing (issue 34)', () => {
    const secrets = () =>
      [
        'cat ~/.npmrc ~/.pypirc ~/.cargo/credentials.toml ~/.gitconfig ~/.bash_history',
        'cat ~/.config/z-engine/settings.toml ~/.local/share/z-engine/sessions/other/log.jsonl',
        `cat ${engineData}/sessions/other/log.jsonl`,
        `grep -rs ${SECRET} ~ /etc /tmp`,
        'echo done',
      ].join('; ')

    it.each(['write', 'read-only'] as const)(
      '%s: registry tokens, the git config, shell history, the engine config and session logs are not there',
      async (mode) => {
        const result = await confined(secrets(), { mode })
        expect(result.output).toContain('done')
        expect(result.output).not.toContain(SECRET)
        expect(existsSync(join(home, '.npmrc'))).toBe(true)
      },
    )

    it('the home is empty but for a git identity (commits still work) and write_paths', async () => {
      const result = await confined('ls -A ~; echo ---; cat ~/.gitconfig; git config user.name', {
        mode: 'read-only',
      })
      expect(result.output.split('---')[0]?.trim().split('\n')).toEqual(['.gitconfig', '.npm'])
      expect(result.output).toContain('Confined Tester')
      expect(result.output).not.toMatch(new RegExp(`${SECRET}|extraHeader`))
    })

    it('read_paths = ["~"] shows the home but still masks secrets and the engine\'s folders', async () => {
      writeFileSync(join(home, 'notes.txt'), 'visible notes\n')
      const result = await confined(`cat ~/notes.txt; ${secrets()}`, { box: homeBound, mode: 'read-only' })
      expect(result.output).toContain('visible notes')
      expect(result.output).toContain('done')
      expect(result.output).not.toContain(SECRET)
    })

    it("the engine's own processes are not there: /proc shows only the sandbox's, so no environ holds the engine's keys", async () => {
      process.env.ZE_ESCAPE_ENGINE_KEY = `ENGINE-KEY-${SECRET}`
      try {
        const result = await confined(
          `cat /proc/[0-9]*/environ /proc/self/root/proc/1/environ 2>/dev/null | tr '\\0' '\\n' | grep -c ENGINE-KEY; echo done`,
          { mode: 'read-only' },
        )
        expect(result.output).toContain('done')
        expect(result.output).not.toContain(SECRET)
        expect(result.output).toMatch(/^0$/m)
      } finally {
        delete process.env.ZE_ESCAPE_ENGINE_KEY
      }
    })

    it('the system view: no /etc/shadow, /etc/gshadow or sudoers, no /run, /var, /home or /root', async () => {
      const result = await confined(
        'cat /etc/shadow /etc/gshadow /etc/sudoers; ls /run /var/run /var /home /root /mnt 2>&1; ls /; cat /etc/passwd | head -1',
        { mode: 'read-only' },
      )
      expect(result.output).not.toMatch(/^root:[^x]/m)
      expect(result.output).toMatch(/root:x:0:0/)
      for (const gone of ['/etc/shadow', '/etc/gshadow', '/run', '/var', '/mnt'])
        expect(result.output).toMatch(new RegExp(`${gone}'?: No such file or directory`))
    })

    describe('unix sockets (a read-only mount does not stop connect())', () => {
      const servers: Server[] = []
      let accepted = 0
      const listen = async (path: string) => {
        const server = createServer((socket) => {
          accepted += 1
          socket.end('hello from outside\n')
        })
        await new Promise<void>((resolve) => server.listen(path, resolve))
        servers.push(server)
      }
      beforeAll(async () => {
        mkdirSync(join(base, 'run'), { recursive: true })
        await listen(join(base, 'run', 'agent.sock'))
        await listen(join(home, 'docker.sock'))
        // Sockets the view shows: one in the project, one in a write_paths folder (~/.npm).
        await listen(join(project, 'control.sock'))
        await listen(join(home, '.npm', 'agent.sock'))
      })
      afterAll(async () => {
        for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()))
        rmSync(join(project, 'control.sock'), { force: true })
        rmSync(join(home, '.npm', 'agent.sock'), { force: true })
      })
      const connect = (path: string) =>
        `node -e 'const s=require("net").connect(process.argv[1]);s.on("data",d=>process.stdout.write("GOT "+d));s.on("error",e=>console.log("ERR "+e.code))' ${path}`

      it.each(['write', 'read-only'] as const)(
        '%s: cannot connect() to a socket outside the view, nor to one the view shows',
        async (mode) => {
          const before = accepted
          const result = await confined(
            [
              connect(join(base, 'run', 'agent.sock')),
              connect(join(home, 'docker.sock')),
              `test -e ${join(base, 'run', 'agent.sock')} || test -e ${join(home, 'docker.sock')} || echo OUTSIDE-GONE`,
              `test -S control.sock && test -S ${join(home, '.npm', 'agent.sock')} && echo VISIBLE`,
              connect('control.sock'),
              connect(join(home, '.npm', 'agent.sock')),
              `python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect("control.sock"); print("GOT", s.recv(99))' 2>&1 | tail -1`,
            ].join('; '),
            { mode },
          )
          expect(result.output).toContain('OUTSIDE-GONE')
          expect(result.output).toContain('VISIBLE')
          expect(result.output).not.toContain('GOT')
          // No unix socket can be made at all, so even the missing paths fail at socket(): EPERM.
          expect(result.output.match(/ERR EPERM/g)).toHaveLength(4)
          expect(result.output).toContain('PermissionError')
          expect(accepted).toBe(before)
        },
      )

      it('allow_network = true shares the network namespace, yet an abstract unix socket (no path to hide) is out of reach', async () => {
        const name = `ze-abstract-${process.pid}-${Date.now()}`
        await listen(`\0${name}`)
        const before = accepted
        const control = await new Promise<string>((resolve) => {
          const socket = createConnection(`\0${name}`)
          socket.on('data', (data) => resolve(String(data)))
          socket.on('error', (error) => resolve(String(error)))
        })
        expect(control).toContain('hello from outside')
        const result = await confined(
          `node -e 'const s=require("net").connect("\\0"+process.argv[1]);s.on("data",d=>process.stdout.write("GOT "+d));s.on("error",e=>console.log("ERR "+e.code))' ${name}`,
          { box: networked },
        )
        expect(result.output).toContain('ERR EPERM')
        expect(result.output).not.toContain('GOT')
        expect(accepted).toBe(before + 1)
      })

      it.each(['write', 'read-only'] as const)(
        '%s, allow_network = true: a socket the view shows is still out of reach',
        async (mode) => {
          const before = accepted
          const result = await confined(connect('control.sock'), { mode, box: networked })
          expect(result.output).toContain('ERR EPERM')
          expect(accepted).toBe(before)
        },
      )

      it.each(['write', 'read-only'] as const)(
        '%s: child processes with pipes still work (socketpair stays)',
        async (mode) => {
          const result = await confined(
            [
              `node -e 'const c=require("child_process").spawn("sh",["-c","cat; echo from-child"],{stdio:["pipe","pipe","inherit"]});c.stdout.on("data",d=>process.stdout.write("node "+d));c.stdin.end("piped\\n")'`,
              `node -e 'console.log(require("child_process").execSync("echo exec-sync").toString().trim())'`,
              `python3 -c 'import subprocess, socket; print(subprocess.run(["echo","py-child"],capture_output=True,text=True).stdout.strip()); socket.socketpair(); print("pair")'`,
            ].join('; '),
            { mode },
          )
          expect(result.output).toContain('node piped')
          expect(result.output).toContain('from-child')
          expect(result.output).toContain('exec-sync')
          expect(result.output).toContain('py-child')
          expect(result.output).toContain('pair')
          expect(result.exitCode).toBe(0)
        },
      )
    })

    it.each(['write', 'read-only'] as const)(
      '%s: a Read(...) deny-ruled file or folder is masked',
      async (mode) => {
        writeFileSync(join(project, '.env'), `API_KEY=ENV-${SECRET}\n`)
        mkdirSync(join(project, 'private'), { recursive: true })
        writeFileSync(join(project, 'private', 'key.pem'), `PEM-${SECRET}\n`)
        try {
          const result = await confined(
            `cat .env; cat private/key.pem; grep -r ${SECRET} .; echo x >> .env; echo done`,
            { mode, masked: [join(project, '.env'), join(project, 'private')] },
          )
          expect(result.output).toContain('done')
          expect(result.output).not.toContain(SECRET)
          expect(read(join(project, '.env'))).toBe(`API_KEY=ENV-${SECRET}\n`)
        } finally {
          rmSync(join(project, '.env'), { force: true })
          rmSync(join(project, 'private'), { recursive: true, force: true })
        }
      },
    )

    it('cannot write toolchain files: existing ones stay, missing ones are gone after the command', async () => {
      writeFileSync(join(project, '.envrc'), 'use nix\n')
      try {
        const result = await confined(
          [
            'echo "export EVIL=1" >> .envrc',
            'printf "[toolchain]\\npath = \\"/tmp/evil\\"\\n" > rust-toolchain.toml',
            'mkdir -p .cargo && echo "[build]" > .cargo/config.toml',
            'echo "nodejs 0.1" > .tool-versions',
            'echo 0.1 > .nvmrc',
            'echo written',
          ].join('; '),
        )
        expect(result.output).toMatch(/Read-only file system/)
        expect(read(join(project, '.envrc'))).toBe('use nix\n')
        for (const name of ['rust-toolchain.toml', '.cargo', '.tool-versions', '.nvmrc'])
          expect(existsSync(join(project, name))).toBe(false)
      } finally {
        rmSync(join(project, '.envrc'), { force: true })
      }
    })

    it('precision: everyday read-only lines run confined as they do outside', async () => {
      const lines = [
        'ls -la',
        'git log -n 5 --oneline',
        'git status --short',
        'grep -rn hello --exclude-dir=.git .',
        'rg -n hello',
        "find . -name '*.md' -not -path './.git/*'",
        'jq -r .name <<< \'{"name":"jq works"}\'',
        'node -e "console.log(process.version)"',
        'cat README.md | wc -l',
      ]
      for (const line of lines) {
        const result = await confined(line, { mode: 'read-only' })
        expect({ line, exitCode: result.exitCode, output: result.output }).toMatchObject({ exitCode: 0 })
      }
    })

    it('precision: npm test runs confined in write mode', async () => {
      const pkg = join(base, 'pkg')
      mkdirSync(pkg, { recursive: true })
      writeFileSync(
        join(pkg, 'package.json'),
        JSON.stringify({ name: 'pkg', version: '1.0.0', scripts: { test: 'node test.js' } }),
      )
      writeFileSync(
        join(pkg, 'test.js'),
        "require('fs').writeFileSync('out.txt', 'ok'); console.log('tests passed')\n",
      )
      const result = await confined('npm test', { root: pkg })
      expect(result.output).toContain('tests passed')
      expect(result.exitCode).toBe(0)
      expect(read(join(pkg, 'out.txt'))).toBe('ok')
    })
  })

  it('hides secrets in HOME (~/.ssh, ~/.aws, ~/.netrc)', async () => {
    const result = await confined(
      'ls -A ~/.ssh; cat ~/.ssh/id_ed25519; cat ~/.aws/credentials; cat ~/.netrc; echo done',
    )
    expect(result.output).toContain('done')
    expect(result.output).not.toContain(SECRET)
    const readOnly = await confined('cat ~/.ssh/id_ed25519 ~/.netrc; echo done', { mode: 'read-only' })
    expect(readOnly.output).not.toContain(SECRET)
  })

  it('read-only mode: the project cannot be written, only the private temp folder', async () => {
    const result = await confined(
      'cat README.md; git status --short; echo x > new-file; echo t > "$TMPDIR/scratch" && cat "$TMPDIR/scratch"',
      { mode: 'read-only' },
    )
    expect(result.output).toContain('hello')
    expect(result.output).toMatch(/Read-only file system/)
    expect(result.output).toContain('t')
    expect(existsSync(join(project, 'new-file'))).toBe(false)
    expect(existsSync(join(sandbox.tmpDir, 'scratch'))).toBe(true)
  })

  it('a build-like command writes the project, a tool cache and temp, commits, and keeps its cwd', async () => {
    mkdirSync(join(project, 'src'), { recursive: true })
    const result = await confined(
      [
        'mkdir -p build && echo artifact > build/out.txt',
        'echo cached > "$HOME/.npm/entry"',
        'echo t > "$TMPDIR/t"',
        'git add build && git commit -q -m build && echo committed',
        'cd src',
      ].join(' && '),
    )
    expect(result.exitCode).toBe(0)
    expect(result.output).toContain('committed')
    expect(read(join(project, 'build', 'out.txt'))).toBe('artifact\n')
    expect(read(join(home, '.npm', 'entry'))).toBe('cached\n')
    expect(result.cwd).toBe(join(project, 'src'))
    expect(git(project, 'log', '--oneline')).toContain('build')
    // Placeholders for missing protected paths leave nothing behind.
    expect(existsSync(join(project, '.mcp.json'))).toBe(false)
  })

  it('a worktree agent writes its worktree (and commits) but not the main project or its hooks', async () => {
    const tree = join(base, 'tree')
    git(project, 'worktree', 'add', '-q', '-b', 'agent', tree)
    const dotGit = read(join(tree, '.git'))
    const result = await confined(
      [
        'echo work > work.txt && git add work.txt && git commit -q -m work && echo committed',
        `echo x > ${project}/from-worktree`,
        `echo evil > ${project}/.git/hooks/pre-commit`,
        'echo "gitdir: /tmp/evil" > .git',
      ].join('; '),
      { root: tree },
    )
    expect(result.output).toContain('committed')
    expect(existsSync(join(project, 'from-worktree'))).toBe(false)
    expect(existsSync(join(project, '.git', 'hooks', 'pre-commit'))).toBe(false)
    expect(read(join(tree, '.git'))).toBe(dotGit)
    expect(git(project, 'log', '--oneline', 'agent')).toContain('work')
  })
})
