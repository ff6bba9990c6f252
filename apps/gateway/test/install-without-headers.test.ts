import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
const manifest = JSON.parse(readFileSync(resolve(import.meta.dirname, '../package.json'), 'utf8')) as {
  dependencies: Record<string, string>
  optionalDependencies?: Record<string, string>
}

describe('installing the gateway where Node headers cannot be downloaded', () => {
  it('keeps better-sqlite3 optional, so its failed native build does not fail the install', async () => {
    expect(manifest.dependencies['better-sqlite3']).toBeUndefined()
    const version = manifest.optionalDependencies?.['better-sqlite3']
    expect(version).toBeDefined()

    // A new user: an empty HOME (no ~/.npmrc naming a nodedir, no node-gyp header cache) and no
    // npm_config_nodedir, so node-gyp would have to download the headers; this machine cannot.
    const work = await mkdtemp(join(tmpdir(), 'gw-install-'))
    try {
      const home = join(work, 'home')
      const project = join(work, 'project')
      await mkdir(home)
      await mkdir(project)
      const dependency = {
        name: 'embedder',
        version: '1.0.0',
        optionalDependencies: { 'better-sqlite3': version },
      }
      await writeFile(join(project, 'package.json'), JSON.stringify(dependency))
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: home,
        npm_config_cache: join(homedir(), '.npm'),
      }
      const install = (mode: string) =>
        run('npm', ['install', mode, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project, env })
      // From npm's cache when it has the tarball; otherwise from the registry (the only network allowed).
      await install('--offline').catch(() => install('--prefer-offline'))
      const built = existsSync(
        join(project, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'),
      )
      // Either the build found headers after all (a machine with node-gyp's own cache) or it was skipped.
      expect(built || !existsSync(join(project, 'node_modules', 'better-sqlite3'))).toBe(true)
    } finally {
      await rm(work, { recursive: true, force: true })
    }
  }, 120_000)
})
