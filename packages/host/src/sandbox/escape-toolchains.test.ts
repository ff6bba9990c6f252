/**
 * Precision of the confined view for toolchains (issue 34): a build or test command runs confined in
 * write mode with its caches named in `[shell.sandbox] write_paths`, and the cache outlives the
 * command (the rest of the home is an empty tmpfs whose writes vanish). `go test` with Debian's
 * golang-go (setup.sh installs it); `npm test` is in escape.test.ts.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findShell, runShellCommand } from '../process/shell.js'
import { detectSandboxBackend } from './detect.js'
import { Sandbox } from './sandbox.js'

const installed = (name: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
const bwrapInstalled = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'].some((path) =>
  existsSync(path),
)
// setup.sh installs both, so CI always runs this.
const run = (bwrapInstalled && installed('go')) || process.env.CI !== undefined

let base: string
let home: string
let env: Record<string, string>
let sandbox: Sandbox

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ze-toolchains-')))
  home = join(base, 'home')
  // The caches the docs' go row names; they must exist to be bound.
  for (const dir of [join(home, '.cache', 'go-build'), join(home, 'go', 'pkg', 'mod')])
    mkdirSync(dir, { recursive: true })
  env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home }
  if (!run) return
  const backend = await detectSandboxBackend()
  if (backend.kind === 'none') throw new Error(`bwrap is installed but cannot start: ${backend.reason}`)
  sandbox = await Sandbox.create({
    backend,
    settings: { enabled: true, allowNetwork: false, writePaths: ['~/.cache/go-build', '~/go/pkg/mod'] },
    home,
    env,
  })
})

afterAll(async () => {
  await sandbox?.dispose()
  // Go writes its module cache read-only; make it removable first.
  if (base) execFileSync('chmod', ['-R', 'u+w', base])
  rmSync(base, { recursive: true, force: true })
})

describe.skipIf(!run)('toolchains run confined with their caches in write_paths', () => {
  it('go test: passes in write mode, its build cache (~/.cache/go-build) kept for the next run', async () => {
    const module = join(base, 'gomod')
    mkdirSync(module)
    writeFileSync(join(module, 'go.mod'), 'module example.com/calc\n\ngo 1.19\n')
    writeFileSync(join(module, 'calc.go'), 'package calc\n\nfunc Add(a, b int) int { return a + b }\n')
    writeFileSync(
      join(module, 'calc_test.go'),
      'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal("add")\n\t}\n}\n',
    )
    const prepared = await sandbox.prepare({ root: module, additionalDirectories: [], granted: 'write' })
    if (!prepared) throw new Error('expected a confined run')
    try {
      const result = await runShellCommand('go test ./... && go env GOCACHE GOMODCACHE', {
        cwd: module,
        env,
        shellPath: findShell(env.PATH),
        wrap: prepared.wrap,
        timeoutMs: 110_000,
      })
      expect({ exitCode: result.exitCode, output: result.output }).toMatchObject({ exitCode: 0 })
      expect(result.output).toMatch(/^ok\s+example\.com\/calc/m)
      expect(result.output).toContain(join(home, '.cache', 'go-build'))
      expect(result.output).toContain(join(home, 'go', 'pkg', 'mod'))
    } finally {
      await prepared.release()
    }
    expect(readdirSync(join(home, '.cache', 'go-build')).length).toBeGreaterThan(0)
  })
})
