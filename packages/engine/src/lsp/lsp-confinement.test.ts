/**
 * Issue 34, class 3 (programs the engine starts itself): a language server starts only in a
 * trusted workspace, from a binary outside the project and not through a launcher the project
 * steers, and runs in the session's sandbox (real bubblewrap): it cannot read the user's secrets
 * or write outside the project.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { confineArgv, detectSandboxBackend, ProcessScope, Sandbox } from '@z-engine/host'
import { afterAll, describe, expect, it } from 'vitest'
import { LspManager } from './lsp-manager.js'

const bwrapInstalled = ['/usr/bin/bwrap', '/usr/local/bin/bwrap'].some((path) => existsSync(path))
const run = bwrapInstalled || process.env.CI !== undefined
const spy = resolve(import.meta.dirname, '__fixtures__', 'spy-server.mjs')
const signal = new AbortController().signal
const base = realpathSync(mkdtempSync(join(tmpdir(), 'ze-lsp-confine-')))
afterAll(() => rmSync(base, { recursive: true, force: true }))

function fixture(name: string) {
  const root = join(base, name, 'project')
  const home = join(base, name, 'home')
  const outside = join(base, name, 'outside')
  for (const dir of [root, home, outside]) mkdirSync(dir, { recursive: true })
  writeFileSync(join(home, '.npmrc'), '//registry.npmjs.org/:_authToken=NPMRC-SECRET\n')
  return { root, home, outside }
}

describe('language servers and workspace trust (issue 34)', () => {
  it('an untrusted workspace starts no server; the tool says how to trust it', async () => {
    const { root, outside } = fixture('untrusted')
    const started = join(outside, 'started')
    const notices: string[] = []
    const manager = new LspManager({
      root,
      settings: {
        enabled: true,
        diagnostics_wait_ms: 5_000,
        servers: {
          spy: { command: process.execPath, args: [spy, '/dev/null', started], extensions: ['sp'] },
        },
      },
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      scope: new ProcessScope(),
      trusted: () => false,
      notice: (level, message) => notices.push(`${level}: ${message}`),
    })
    const file = join(root, 'a.sp')
    writeFileSync(file, 'x\n')
    const result = await manager.query({ operation: 'documentSymbol', filePath: file }, signal)
    expect(result.ok).toBe(false)
    expect(result.ok ? '' : result.error.message).toContain('only in a trusted workspace')
    expect(await manager.diagnosticsAfterWrite(file, signal)).toBeUndefined()
    expect(existsSync(started)).toBe(false)
    await manager.close()
  })

  it('a server binary inside the project is used only from its node_modules/.bin or virtualenv, and only when trusted; one behind a shim is not; one outside is', () => {
    const { root } = fixture('resolution')
    const local = join(root, 'node_modules', '.bin')
    const shims = join(base, 'resolution', 'asdf', 'shims')
    const real = join(base, 'resolution', 'tools', 'bin')
    for (const dir of [local, shims, real]) mkdirSync(dir, { recursive: true })
    const manager = (PATH: string, trusted = true, at = root) =>
      new LspManager({
        root: at,
        settings: {
          enabled: true,
          diagnostics_wait_ms: 1_000,
          servers: { my: { command: 'my-ls', extensions: ['my'] } },
        },
        env: { PATH },
        scope: new ProcessScope(),
        trusted: () => trusted,
        notice: () => {},
      })
    const other = fixture('resolution-other').root
    const elsewhere = join(other, 'scripts')
    for (const dir of [local, shims, real, elsewhere]) {
      mkdirSync(dir, { recursive: true })
      writeFileSync(join(dir, 'my-ls'), '#!/bin/sh\n')
      chmodSync(join(dir, 'my-ls'), 0o755)
    }
    // Issue 39: a trusted project's own install is used, whatever PATH says; untrusted, it is not.
    expect(manager('').anyInstalled()).toBe(true)
    expect(manager(local, false).anyInstalled()).toBe(false)
    // Any other folder of a project on PATH is no install of it: refused even when trusted.
    expect(manager(elsewhere, true, other).anyInstalled()).toBe(false)
    expect(manager(shims, false).anyInstalled()).toBe(false)
    expect(manager(`${local}:${shims}:${real}`, false).anyInstalled()).toBe(true)
    // A relative command resolves inside the project: refused too.
    const relative = new LspManager({
      root,
      settings: {
        enabled: true,
        diagnostics_wait_ms: 1_000,
        servers: { my: { command: './node_modules/.bin/my-ls', extensions: ['my'] } },
      },
      env: { PATH: real },
      scope: new ProcessScope(),
      trusted: () => true,
      notice: () => {},
    })
    expect(relative.anyInstalled()).toBe(false)
  })

  it.skipIf(!run)(
    'a server runs confined: it cannot read ~/.npmrc or write outside the project',
    async () => {
      const { root, home, outside } = fixture('confined')
      const backend = await detectSandboxBackend()
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home }
      const sandbox = await Sandbox.create({
        backend,
        settings: { enabled: false, allowNetwork: false },
        home,
        env,
      })
      const manager = new LspManager({
        root,
        settings: {
          enabled: true,
          diagnostics_wait_ms: 20_000,
          servers: {
            spy: {
              command: process.execPath,
              args: [spy, join(home, '.npmrc'), join(outside, 'escaped.txt')],
              extensions: ['sp'],
            },
          },
        },
        env,
        scope: new ProcessScope(),
        trusted: () => true,
        confine: (argv, cwd) => confineArgv(sandbox, { root, additionalDirectories: [] }, argv, cwd),
        notice: () => {},
      })
      try {
        const file = join(root, 'a.sp')
        writeFileSync(file, 'x\n')
        const diagnostics = await manager.diagnosticsAfterWrite(file, signal)
        expect(diagnostics).toMatch(/read=ENOENT write=(ENOENT|EROFS)/)
        expect(diagnostics).not.toContain('NPMRC-SECRET')
        expect(existsSync(join(outside, 'escaped.txt'))).toBe(false)
      } finally {
        await manager.close()
        await sandbox.dispose()
      }
    },
    60_000,
  )
})
