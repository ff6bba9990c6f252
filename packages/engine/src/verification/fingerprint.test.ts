import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { WorkspaceFingerprint } from './fingerprint.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' }

function project(git: boolean): string {
  const root = mkdtempSync(join(tmpdir(), 'ze-fp-'))
  dirs.push(root)
  writeFileSync(join(root, 'a.txt'), 'one\n')
  mkdirSync(join(root, 'node_modules'))
  writeFileSync(join(root, 'node_modules', 'dep.js'), 'x')
  if (git) {
    execFileSync('git', ['init', '-q'], { cwd: root })
    writeFileSync(join(root, '.gitignore'), 'dist/\n')
    execFileSync('git', ['add', '.'], { cwd: root })
  }
  return root
}

describe('workspace fingerprint', () => {
  it('covers tracked and untracked files, not ignored ones; a content change changes it, a touch does not', async () => {
    const root = project(true)
    const fingerprint = new WorkspaceFingerprint(root, env)
    const first = await fingerprint.compute()
    expect(first).toMatch(/^sha256:[0-9a-f]{64}$/)
    mkdirSync(join(root, 'dist'))
    writeFileSync(join(root, 'dist', 'out.js'), 'built')
    writeFileSync(join(root, 'node_modules', 'dep.js'), 'changed')
    expect(await fingerprint.compute()).toBe(first)
    writeFileSync(join(root, 'a.txt'), 'one\n')
    expect(await fingerprint.compute()).toBe(first)
    writeFileSync(join(root, 'new.txt'), 'untracked')
    const second = await fingerprint.compute()
    expect(second).not.toBe(first)
    writeFileSync(join(root, 'a.txt'), 'two\n')
    expect(await fingerprint.compute()).not.toBe(second)
    // A fresh instance (no cache) agrees: the cache only saves work.
    expect(await new WorkspaceFingerprint(root, env).compute()).toBe(await fingerprint.compute())
  })

  it('walks a folder outside git, skipping dependency trees', async () => {
    const root = project(false)
    const fingerprint = new WorkspaceFingerprint(root, env)
    const first = await fingerprint.compute()
    writeFileSync(join(root, 'node_modules', 'dep.js'), 'changed')
    expect(await fingerprint.compute()).toBe(first)
    writeFileSync(join(root, 'a.txt'), 'two\n')
    expect(await fingerprint.compute()).not.toBe(first)
  })
})

describe('workspace fingerprint in a hostile repository (issue 34)', () => {
  it("lists files without running the repository's core.fsmonitor", async () => {
    const root = project(true)
    const canary = join(root, '..', `${root.split('/').pop()}-ran`)
    dirs.push(canary)
    const program = join(root, 'monitor.sh')
    writeFileSync(program, `#!/bin/sh\ntouch ${canary}\nexit 1\n`, { mode: 0o755 })
    execFileSync('git', ['config', 'core.fsmonitor', program], { cwd: root })
    expect(await new WorkspaceFingerprint(root, env).compute()).toMatch(/^sha256:/)
    expect(existsSync(canary)).toBe(false)
    // The same listing through plain git does run it: the check above means something.
    execFileSync('git', ['ls-files', '--others'], { cwd: root, stdio: 'pipe' })
    expect(existsSync(canary)).toBe(true)
  })
})
