import { execFile } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * The 8 libraries as an embedder gets them: packed with `pnpm pack`, unpacked into a fresh app's
 * node_modules, type-checked (strict) and run as ESM and as CommonJS, and bundled by esbuild into one
 * ES module file and one CommonJS file that run from a folder with no node_modules at all — with no
 * provider SDK installed (they are optional peers). Then a Claude Agent SDK program, with the
 * Anthropic SDK and zod installed as the app's own dependencies, runs through
 * `@z-engine/engine/claude-agent-sdk`, unbundled and bundled both ways.
 *
 * Offline by design: each tarball is unpacked where npm would put it, and each third-party
 * dependency it declares is linked to the copy this repository already installed (the same
 * version, from the lockfile). npm's own install of the tarballs, which needs the registry, is
 * measured by `pnpm bench` (scripts/bench-install.mjs): size, package count, install scripts.
 */
const run = promisify(execFile)
const REPO = resolve(import.meta.dirname, '../..')
const LIBRARIES = ['protocol', 'policy', 'context', 'prompts', 'store', 'host', 'tools', 'engine']
const BUILT = LIBRARIES.every((name) => existsSync(join(REPO, 'packages', name, 'dist')))
const requireHere = createRequire(import.meta.url)
const tsc = requireHere.resolve('typescript/bin/tsc')
const esbuild = createRequire(requireHere.resolve('tsup')).resolve('esbuild')

type Manifest = { name: string; dependencies?: Record<string, string>; files?: string[] }

/** Unpacks every tarball into `app/node_modules` and links each declared third-party dependency. */
async function install(tarballs: string, app: string): Promise<Manifest[]> {
  const manifests: Manifest[] = []
  for (const name of LIBRARIES) {
    const tarball = readdirSync(tarballs).find((file) => file.startsWith(`z-engine-${name}-`))
    if (tarball === undefined) throw new Error(`no tarball for ${name}`)
    const target = join(app, 'node_modules', '@z-engine', name)
    mkdirSync(target, { recursive: true })
    await run('tar', ['-xzf', join(tarballs, tarball), '-C', target, '--strip-components=1'])
    const manifest = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as Manifest
    manifests.push(manifest)
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      if (dependency.startsWith('@z-engine/')) continue
      const link = join(target, 'node_modules', dependency)
      mkdirSync(dirname(link), { recursive: true })
      symlinkSync(realpathSync(join(REPO, 'packages', name, 'node_modules', dependency)), link)
    }
  }
  mkdirSync(join(app, 'node_modules', '@types'), { recursive: true })
  symlinkSync(
    realpathSync(join(REPO, 'node_modules', '@types', 'node')),
    join(app, 'node_modules', '@types', 'node'),
  )
  return manifests
}

/** Bundles `entry` of the app into one file of `format` (esbuild, `--platform=node`) in `dir`, and runs it there. */
async function bundleAndRun(app: string, entry: string, dir: string, format: 'esm' | 'cjs') {
  const { build } = requireHere(esbuild) as { build(options: Record<string, unknown>): Promise<unknown> }
  const outfile = join(dir, format === 'esm' ? 'app.mjs' : 'app.cjs')
  await build({
    entryPoints: [join(app, entry)],
    absWorkingDir: app,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format,
    outfile,
    logLevel: 'silent',
  })
  return run(process.execPath, [outfile], { cwd: dir })
}

// Each step is its own test with its own ceiling: on a loaded machine (the stress script) the whole
// chain took more than five minutes, while no single step comes close.
const STEP_MS = 300_000
const expected = {
  statuses: { weather: 'ok', Read: 'ok', Bash: 'denied' },
  seen: ['weather', 'Read', 'Bash'],
  cities: ['Bergen'],
  text: 'all done',
  run: { outcome: 'done', text: 'could not write', denial: true },
}
const sdkExpected = {
  first: 'Sunny in Bergen.',
  denied: ['Bash'],
  cities: ['Bergen'],
  resumed: 'Still sunny.',
  missing: { is_error: true },
}

describe.runIf(BUILT)('the packed libraries in a fresh app (needs pnpm build)', () => {
  let work = ''
  let app = ''
  let cjs = ''
  let manifests: Manifest[] = []

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'z-pack-libs-'))
    const tarballs = join(work, 'tarballs')
    app = join(work, 'app')
    await Promise.all(
      LIBRARIES.map((name) =>
        run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: join(REPO, 'packages', name) }),
      ),
    )
    manifests = await install(tarballs, app)
    copyFileSync(join(import.meta.dirname, 'app', 'main.ts'), join(app, 'main.ts'))
    copyFileSync(join(import.meta.dirname, 'app', 'tsconfig.json'), join(app, 'tsconfig.json'))
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }))
    cjs = join(app, 'cjs')
    mkdirSync(cjs)
    copyFileSync(join(app, 'main.ts'), join(cjs, 'main.ts'))
    await writeFile(join(cjs, 'package.json'), JSON.stringify({ type: 'commonjs' }))
    await writeFile(
      join(cjs, 'tsconfig.json'),
      // verbatimModuleSyntax forbids import statements that compile to require.
      JSON.stringify({
        extends: '../tsconfig.json',
        compilerOptions: { verbatimModuleSyntax: false, outDir: 'dist' },
        files: ['main.ts'],
      }),
    )
  }, STEP_MS)
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true })
  })

  it('carry what npm shows and a user needs: README, LICENSE, no workspace ranges, the grammars', () => {
    for (const manifest of manifests) {
      const dir = join(app, 'node_modules', manifest.name)
      expect(existsSync(join(dir, 'README.md')), `${manifest.name} README`).toBe(true)
      expect(existsSync(join(dir, 'LICENSE')), `${manifest.name} LICENSE`).toBe(true)
      expect(readFileSync(join(dir, 'package.json'), 'utf8')).not.toContain('workspace:')
    }
    // Six grammars and the tree-sitter runtime (its JavaScript is bundled into @z-engine/context).
    expect(
      readdirSync(join(app, 'node_modules', '@z-engine', 'context', 'grammars')).filter((f) =>
        f.endsWith('.wasm.br'),
      ),
    ).toHaveLength(7)
    expect(
      existsSync(join(app, 'node_modules', '@z-engine', 'context', 'node_modules', 'web-tree-sitter')),
    ).toBe(false)
  })

  it(
    'type-check strictly and run as an ES module (the `import` types)',
    async () => {
      await run(process.execPath, [tsc, '-p', app], { cwd: app })
      const esm = await run(process.execPath, [join(app, 'dist', 'main.js')], { cwd: app })
      expect(JSON.parse(esm.stdout)).toEqual(expected)
    },
    STEP_MS,
  )

  it(
    'type-check strictly and run as CommonJS (the `require` types, .d.cts)',
    async () => {
      await run(process.execPath, [tsc, '-p', cjs], { cwd: cjs })
      expect(readFileSync(join(cjs, 'dist', 'main.js'), 'utf8')).toContain('require("@z-engine/engine")')
      const commonjs = await run(process.execPath, [join(cjs, 'dist', 'main.js')], { cwd: cjs })
      expect(JSON.parse(commonjs.stdout)).toEqual(expected)
    },
    STEP_MS,
  )

  it(
    'build the repository map from the packed engine, as ES module and CommonJS',
    async () => {
      // The compressed grammars and runtime wasm are read from @z-engine/context and parsed (in the worker).
      const project = join(work, 'project')
      mkdirSync(join(project, 'src'), { recursive: true })
      await writeFile(
        join(project, 'src', 'a.ts'),
        'export function add(a: number, b: number) { return a + b }\n',
      )
      await writeFile(join(project, 'b.py'), 'class Box:\n    pass\n')
      const probe = `.buildRepoMap({ root: ${JSON.stringify(project)} }).then((map) => console.log(JSON.stringify(map)))`
      const maps = await Promise.all([
        run(
          process.execPath,
          ['--input-type=module', '-e', `import('@z-engine/engine/repository').then((m) => m${probe})`],
          { cwd: app },
        ),
        run(process.execPath, ['-e', `require('@z-engine/engine/repository')${probe}`], { cwd: cjs }),
      ])
      for (const map of maps) {
        const built = JSON.parse(map.stdout) as { errors: string[]; text: string }
        expect(built.errors).toEqual([])
        expect(built.text).toContain('function add(a: number, b: number)')
        expect(built.text).toContain('class Box')
      }
    },
    STEP_MS,
  )

  it(
    'bundle into one ES module and one CommonJS file with no provider SDK installed',
    async () => {
      // Each run from a folder where nothing else can be resolved: the custom tool's schema compiles
      // (ajv is in the bundle), yaml needs no require shim.
      const alone = join(work, 'alone')
      for (const format of ['esm', 'cjs'] as const) {
        const bundled = await bundleAndRun(app, 'main.ts', alone, format)
        expect(JSON.parse(bundled.stdout), format).toEqual(expected)
      }
    },
    STEP_MS,
  )

  it(
    'run a Claude Agent SDK program, unbundled and bundled',
    async () => {
      // The app installs the Anthropic SDK (the engine's optional peer) and zod, and not OpenAI's SDK.
      for (const dependency of ['@anthropic-ai/sdk', 'zod']) {
        const link = join(app, 'node_modules', dependency)
        mkdirSync(dirname(link), { recursive: true })
        symlinkSync(realpathSync(join(REPO, 'packages', 'engine', 'node_modules', dependency)), link)
      }
      expect(existsSync(join(app, 'node_modules', 'openai'))).toBe(false)
      copyFileSync(join(import.meta.dirname, 'app', 'sdk-main.ts'), join(app, 'sdk-main.ts'))
      await writeFile(
        join(app, 'tsconfig.sdk.json'),
        JSON.stringify({ extends: './tsconfig.json', files: ['sdk-main.ts'] }),
      )
      await run(process.execPath, [tsc, '-p', join(app, 'tsconfig.sdk.json')], { cwd: app })
      const sdk = await run(process.execPath, [join(app, 'dist', 'sdk-main.js')], { cwd: app })
      const outcome = JSON.parse(sdk.stdout) as { missing: { is_error: boolean; text: string } }
      expect(outcome).toMatchObject(sdkExpected)
      expect(outcome.missing.text).toContain(
        'The OpenAI SDK is not installed. The engine loads provider SDKs as optional peer dependencies: run `npm install openai@6.49.0` in your app.',
      )

      // The same program bundled (ES module and CommonJS) with the Anthropic SDK and zod inside: the
      // SDK MCP server's tool is offered and called, canUseTool denies, the session resumes.
      for (const format of ['esm', 'cjs'] as const) {
        const bundled = await bundleAndRun(app, 'sdk-main.ts', join(work, `alone-sdk-${format}`), format)
        expect(JSON.parse(bundled.stdout), format).toMatchObject(sdkExpected)
      }
    },
    STEP_MS,
  )
})
