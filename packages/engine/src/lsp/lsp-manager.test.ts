import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { ProcessScope } from '@z-engine/host'
import { afterEach, describe, expect, it } from 'vitest'
import { LspManager } from './lsp-manager.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
const signal = new AbortController().signal
const fake = resolve(import.meta.dirname, '__fixtures__', 'fake-server.mjs')

function setup(
  servers: Record<string, { command: string; args?: string[]; extensions?: string[] }>,
  options: { trusted?: boolean } = {},
) {
  const root = mkdtempSync(join(tmpdir(), 'ze-lsp-'))
  dirs.push(root)
  const notices: string[] = []
  const scope = new ProcessScope()
  const manager = new LspManager({
    root,
    settings: { enabled: true, diagnostics_wait_ms: 5_000, servers },
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    scope,
    trusted: () => options.trusted ?? true,
    notice: (level, message) => notices.push(`${level}: ${message}`),
  })
  return { root, manager, notices, scope }
}

const text = (result: {
  ok: boolean
  output?: { content: Array<{ type: string; text?: string }> }
  error?: { message: string }
}) =>
  result.ok
    ? (result.output?.content.map((block) => block.text ?? '').join('\n') ?? '')
    : (result.error?.message ?? '')

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('LspManager (language servers per session)', () => {
  it('starts a configured server lazily, appends error diagnostics after a write, restarts a crashed server once, then turns it off; close kills it', async () => {
    const { root, manager, notices } = setup({})
    const pids = join(root, 'pids')
    const configured = setup({ fake: { command: process.execPath, args: [fake, pids], extensions: ['fk'] } })
    const { manager: lsp } = configured
    expect(manager.covers(join(root, 'a.fk'))).toBe(false)
    expect(lsp.covers(join(configured.root, 'a.fk'))).toBe(true)
    const file = join(configured.root, 'a.fk')
    writeFileSync(file, 'good\n')
    expect(await lsp.diagnosticsAfterWrite(file, signal)).toBeUndefined()
    writeFileSync(file, 'bad\n')
    expect(await lsp.diagnosticsAfterWrite(file, signal)).toBe(
      'fake reports 1 error in a.fk:\na.fk:1:1 error: bad is bad (fake 7)',
    )
    expect(text(await lsp.query({ operation: 'documentSymbol', filePath: file }, signal))).toBe(
      'function thing (line 1)',
    )

    // A crash (the fake exits on hover) restarts the server on its next use, once.
    await lsp
      .query({ operation: 'hover', filePath: file, line: 1, character: 1 }, signal)
      .catch(() => undefined)
    await expect.poll(() => configured.notices.join('\n')).toContain('fake language server stopped')
    expect(text(await lsp.query({ operation: 'documentSymbol', filePath: file }, signal))).toBe(
      'function thing (line 1)',
    )
    await lsp.query({ operation: 'hover', filePath: file, symbol: 'bad' }, signal).catch(() => undefined)
    await expect.poll(() => configured.notices.join('\n')).toContain('crashed again')
    expect(text(await lsp.query({ operation: 'documentSymbol', filePath: file }, signal))).toContain(
      'crashed twice',
    )
    const started = readFileSync(pids, 'utf8').trim().split('\n').map(Number)
    expect(started).toHaveLength(2)
    await lsp.close()
    expect(started.filter(alive)).toEqual([])
    expect(notices).toEqual([])
  })

  it('names what to install when no server for the file type is installed', async () => {
    const { root, manager, notices } = setup({ zz: { command: 'zz-not-installed-ls', extensions: ['zz'] } })
    const result = await manager.query({ operation: 'documentSymbol', filePath: join(root, 'x.zz') }, signal)
    expect(text(result)).toBe(
      'No language server for .zz files is installed: install the command zz-not-installed-ls configured in [lsp.servers.zz], or configure one in [lsp.servers].',
    )
    expect(await manager.diagnosticsAfterWrite(join(root, 'x.zz'), signal)).toBeUndefined()
    expect(notices).toHaveLength(1)
  })

  it('asks rustup for a proxied server only when a toolchain holds it', () => {
    const home = mkdtempSync(join(tmpdir(), 'ze-lsp-home-'))
    dirs.push(home)
    const bin = join(home, 'bin')
    mkdirSync(bin)
    // A rustup that records each run and answers like `rustup which`: the default toolchain's binary.
    const asked = join(home, 'asked')
    const installed = join(home, '.rustup', 'toolchains', 'stable', 'bin', 'rust-analyzer')
    writeFileSync(
      join(bin, 'rustup'),
      `#!/bin/sh\necho "$@" >> ${asked}\n[ -x ${installed} ] && echo ${installed} && exit 0\nexit 1\n`,
    )
    chmodSync(join(bin, 'rustup'), 0o755)
    symlinkSync('rustup', join(bin, 'rust-analyzer'))
    const manager = () =>
      new LspManager({
        root: mkdtempSync(join(tmpdir(), 'ze-lsp-')),
        settings: { enabled: true, diagnostics_wait_ms: 5_000, servers: {} },
        env: { PATH: bin, HOME: home },
        scope: new ProcessScope(),
        trusted: () => true,
        notice: () => {},
      })
    // rustup without the component (no toolchain has rust-analyzer): not offered, rustup not run.
    expect(manager().anyInstalled()).toBe(false)
    expect(existsSync(asked)).toBe(false)
    mkdirSync(dirname(installed), { recursive: true })
    writeFileSync(installed, '#!/bin/sh\n')
    chmodSync(installed, 0o755)
    expect(manager().anyInstalled()).toBe(true)
    expect(readFileSync(asked, 'utf8')).toBe('which rust-analyzer\n')
  })
})
