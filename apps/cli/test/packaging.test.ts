import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { sandbox } from './helpers.js'

const run = promisify(execFile)
const REPO = resolve(import.meta.dirname, '../../..')
const PACKAGES = ['protocol', 'policy', 'context', 'prompts', 'store', 'host', 'tools', 'engine'].map(
  (name) => join(REPO, 'packages', name),
)
const ALL = [...PACKAGES, join(REPO, 'apps/cli')]
const BUILT = ALL.every((dir) => existsSync(join(dir, 'dist')))

describe.runIf(BUILT)('packaging (needs pnpm build)', () => {
  it('pnpm pack every package, npm install the tarballs into a temp prefix, run --version and a scripted exec', async () => {
    const work = await mkdtemp(join(tmpdir(), 'z-pack-'))
    const tarballs = join(work, 'tarballs')
    const prefix = join(work, 'prefix')
    await mkdir(prefix, { recursive: true })
    await Promise.all(ALL.map((dir) => run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: dir })))
    const files = (await readdir(tarballs))
      .filter((file) => file.endsWith('.tgz'))
      .map((file) => join(tarballs, file))
    expect(files).toHaveLength(ALL.length)
    // pnpm pack rewrites workspace:* ranges to versions; a leftover would make npm fail below anyway.
    const { stdout: manifest } = await run('tar', [
      '-xzOf',
      join(tarballs, 'z-engine-0.1.0.tgz'),
      'package/package.json',
    ])
    expect(manifest).not.toContain('workspace:')

    const install = (mode: string) =>
      run(
        'npm',
        ['install', '--prefix', prefix, mode, '--no-audit', '--no-fund', '--loglevel=error', ...files],
        {
          cwd: work,
          maxBuffer: 1 << 24,
        },
      )
    // Offline from npm's cache; a cold cache falls back to the registry (the only network allowed).
    await install('--offline').catch(() => install('--prefer-offline'))

    expect(existsSync(join(prefix, 'node_modules', 'z-engine', 'schema', 'stream-json.schema.json'))).toBe(
      true,
    )
    const bin = join(prefix, 'node_modules', '.bin', 'z-engine')
    const version = await run(bin, ['--version'])
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)

    const box = await sandbox()
    const script = join(box.root, 'hello.jsonl')
    await writeFile(
      script,
      `${JSON.stringify({ blocks: [{ type: 'text', text: 'installed and running' }] })}\n`,
    )
    const exec = await run(bin, ['exec', '--model', `scripted:${script}`, '--output-format', 'json', 'hi'], {
      cwd: box.project,
      env: box.env,
    })
    expect(JSON.parse(exec.stdout)).toMatchObject({
      outcome: 'done',
      result: 'installed and running',
      exit_code: 0,
    })
  }, 300_000) // a cold npm cache downloads the dependencies from the registry
})
