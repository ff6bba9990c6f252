#!/usr/bin/env node
/**
 * What an embedder installs (uses the npm registry, or npm's cache when warm): builds the 8 library
 * packages from empty `dist/` folders (turbo replays a cached build over what is there, so a `dist/`
 * built before can hold stale chunks that `pnpm pack` would ship and this would count), packs them, npm-installs the tarballs into a fresh app, and prints the install
 * size (apparent bytes and disk usage), package count and install scripts, then, from that app, the
 * import time of `@z-engine/engine` (ESM and CommonJS, median of 9 fresh processes) and the memory
 * of an idle session (an engine with 20 sessions open, none running a turn).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const LIBRARIES = ['protocol', 'policy', 'context', 'prompts', 'store', 'host', 'tools', 'engine']
const root = resolve(import.meta.dirname, '..')
for (const name of LIBRARIES) rmSync(join(root, 'packages', name, 'dist'), { recursive: true, force: true })
execFileSync(
  'pnpm',
  ['exec', 'turbo', 'run', 'build', ...LIBRARIES.map((name) => `--filter=@z-engine/${name}`)],
  {
    cwd: root,
    stdio: 'ignore',
  },
)
for (const name of LIBRARIES) {
  if (!existsSync(join(root, 'packages', name, 'dist'))) {
    console.error(`packages/${name} did not build: run pnpm build to see why.`)
    process.exit(1)
  }
}

const work = mkdtempSync(join(tmpdir(), 'z-bench-install-'))
const tarballs = join(work, 'tarballs')
const app = join(work, 'app')
mkdirSync(app)
for (const name of LIBRARIES) {
  execFileSync('pnpm', ['pack', '--pack-destination', tarballs], {
    cwd: join(root, 'packages', name),
    stdio: 'ignore',
  })
}
const files = readdirSync(tarballs).map((file) => join(tarballs, file))
writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'bench-app', private: true, type: 'module' }))
execFileSync(
  'npm',
  ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...files],
  {
    cwd: app,
    stdio: 'inherit',
  },
)

const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8'))
const installed = Object.entries(lock.packages).filter(([path]) => path.startsWith('node_modules/'))
const scripts = installed.filter(([, entry]) => entry.hasInstallScript).map(([path]) => path.slice(13))
const duBytes = (flags) =>
  Number(execFileSync('du', [...flags, join(app, 'node_modules')], { encoding: 'utf8' }).split('\t')[0])
const apparent = duBytes(['-sb'])
const disk = duBytes(['-sk']) * 1024
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`
const biggest = readdirSync(join(app, 'node_modules'))
  .flatMap((entry) =>
    entry.startsWith('@')
      ? readdirSync(join(app, 'node_modules', entry)).map((sub) => `${entry}/${sub}`)
      : entry.startsWith('.')
        ? []
        : [entry],
  )
  .map((name) => ({ name, bytes: duBytesOf(join(app, 'node_modules', name)) }))
  .sort((a, b) => b.bytes - a.bytes)
  .slice(0, 6)
function duBytesOf(path) {
  return Number(execFileSync('du', ['-sb', path], { encoding: 'utf8' }).split('\t')[0])
}

console.log(`install (8 libraries): ${mb(apparent)} apparent size, ${mb(disk)} on disk (du, 4 KiB blocks)`)
console.log(`packages installed: ${installed.length} (the 8 libraries included)`)
console.log(`install scripts: ${scripts.length === 0 ? 'none' : scripts.join(', ')}`)
console.log(`largest: ${biggest.map(({ name, bytes }) => `${name} ${mb(bytes)}`).join(', ')}`)

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]
/** Wall and CPU milliseconds of importing the engine in a fresh process (median of 9 each). */
function importMs(kind) {
  const wall = []
  const cpu = []
  for (let run = 0; run < 9; run++) {
    const load = kind === 'esm' ? "await import('@z-engine/engine')" : "require('@z-engine/engine')"
    const code = `const t = performance.now(); const c = process.cpuUsage(); ${load}; const u = process.cpuUsage(c); console.log(performance.now() - t, (u.user + u.system) / 1000)`
    const args = kind === 'esm' ? ['--input-type=module', '-e', code] : ['-e', code]
    const [w, c] = execFileSync(process.execPath, args, { cwd: app, encoding: 'utf8' })
      .trim()
      .split(' ')
      .map(Number)
    wall.push(w)
    cpu.push(c)
  }
  return `${median(wall).toFixed(0)} ms wall, ${median(cpu).toFixed(0)} ms CPU`
}
const load = loadavg()[0].toFixed(1)
console.log(
  `import @z-engine/engine (median of 9; load avg ${load}): ESM ${importMs('esm')}; CommonJS ${importMs('cjs')}`,
)

const SESSIONS = 20
const probe = `
  import { mkdtempSync } from 'node:fs'
  import { loadavg, tmpdir } from 'node:os'
  import { join } from 'node:path'
  import { Engine } from '@z-engine/engine'
  import { ScriptedClient } from '@z-engine/engine/testing'
  const base = mkdtempSync(join(tmpdir(), 'z-bench-idle-'))
  const engine = await Engine.create({
    dataDir: join(base, 'data'), configDir: join(base, 'config'), home: base, env: {},
    clientFactory: { createClient: () => ({ ok: true, client: new ScriptedClient([]), provider: 'scripted', model: 'scripted' }) },
  })
  const open = async (n) => { for (let i = 0; i < n; i++) await engine.openSession({ projectRoot: base }) }
  await open(1)
  globalThis.gc(); await new Promise((r) => setTimeout(r, 50)); globalThis.gc()
  const before = process.memoryUsage()
  await open(${SESSIONS})
  globalThis.gc(); await new Promise((r) => setTimeout(r, 50)); globalThis.gc()
  const after = process.memoryUsage()
  console.log(JSON.stringify({ heap: (after.heapUsed - before.heapUsed) / ${SESSIONS}, rss: (after.rss - before.rss) / ${SESSIONS}, baseRss: before.rss }))
  await engine.shutdown()
`
const idle = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', probe], {
  cwd: app,
  encoding: 'utf8',
})
if (idle.status !== 0) {
  console.error(idle.stderr)
  process.exit(1)
}
const { heap, rss, baseRss } = JSON.parse(idle.stdout.trim().split('\n').at(-1))
console.log(
  `memory per idle session: ${(heap / 1e6).toFixed(2)} MB heap, ${(rss / 1e6).toFixed(2)} MB RSS (${SESSIONS} sessions opened after the first; process RSS with one session ${mb(baseRss)})`,
)

// The provider SDKs are optional peers: what an app adds by installing one, then the other.
const engineManifest = JSON.parse(readFileSync(join(root, 'packages', 'engine', 'package.json'), 'utf8'))
const sdks = Object.keys(engineManifest.peerDependencies ?? {})
for (const [index, sdk] of sdks.entries()) {
  const version = engineManifest.devDependencies[sdk]
  execFileSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', `${sdk}@${version}`],
    {
      cwd: app,
      stdio: 'inherit',
    },
  )
  const count = Object.keys(JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')).packages).filter(
    (path) => path.startsWith('node_modules/'),
  ).length
  console.log(
    `install with ${sdks.slice(0, index + 1).join(' + ')}: ${mb(duBytes(['-sb']))} apparent size, ${mb(duBytes(['-sk']) * 1024)} on disk, ${count} packages`,
  )
}
rmSync(work, { recursive: true, force: true })
