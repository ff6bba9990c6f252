import { execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runCli } from '../src/router.js'
import { memoryIo } from '../src/testing-io.js'

/** The built CLI entry (end-to-end tests need `pnpm build`). */
export const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/bin.js')

/** Whether the built CLI and the engine's dist exist, for tests that spawn the real binary. */
export const HAVE_DIST =
  existsSync(BIN) &&
  existsSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../../packages/engine/dist/index.js'))

/** A temp home with XDG folders and a git project inside it. */
export interface Sandbox {
  root: string
  project: string
  env: NodeJS.ProcessEnv
  script(name: string, steps: readonly unknown[]): Promise<string>
}

/** Creates a sandbox: a fresh HOME, data and config folders, and a git repository as the project. */
export async function sandbox(): Promise<Sandbox> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'z-cli-')))
  const project = join(root, 'project')
  await mkdir(project)
  execFileSync('git', ['init', '-q'], { cwd: project })
  await writeFile(join(project, 'README.md'), '# demo\n')
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: root,
    XDG_DATA_HOME: join(root, 'data'),
    XDG_CONFIG_HOME: join(root, 'config'),
    GIT_CONFIG_NOSYSTEM: '1',
  }
  return {
    root,
    project,
    env,
    async script(name, steps) {
      const path = join(root, name)
      await writeFile(path, `${steps.map((step) => JSON.stringify(step)).join('\n')}\n`)
      return path
    },
  }
}

/** Runs the CLI in this process (TypeScript sources) and returns its code and output. */
export async function runInProcess(
  argv: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = memoryIo(argv, options)
  const code = await runCli(io.io)
  // Let the PassThrough streams deliver what was written.
  await new Promise((done) => setImmediate(done))
  return { code, stdout: io.stdout(), stderr: io.stderr() }
}

/** A running child CLI process. */
export interface Child {
  pid: number
  stdout: () => string
  stderr: () => string
  exited: Promise<number | null>
  write(text: string): void
  end(): void
  kill(signal: NodeJS.Signals): void
}

/** Starts the built CLI as a child process. */
export function spawnCli(
  argv: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string },
): Child {
  const child = spawn(process.execPath, [BIN, ...argv], { cwd: options.cwd, env: options.env, stdio: 'pipe' })
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8')
  })
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8')
  })
  if (options.stdin !== undefined) child.stdin.end(options.stdin)
  const exited = new Promise<number | null>((done) =>
    child.on('close', (code, signal) => done(code ?? (signal ? 128 : null))),
  )
  return {
    pid: child.pid ?? 0,
    stdout: () => out,
    stderr: () => err,
    exited,
    write: (text) => child.stdin.write(text),
    end: () => child.stdin.end(),
    kill: (signal) => child.kill(signal),
  }
}

/** Runs the built CLI to completion. */
export async function runChild(
  argv: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCli(argv, { ...options, stdin: options.stdin ?? '' })
  const code = await child.exited
  return { code, stdout: child.stdout(), stderr: child.stderr() }
}

/** Waits until `check` holds, polling. */
export async function until(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((done) => setTimeout(done, 20))
  }
}

/** Replaces run-specific values (ids, hashes, times, temp paths) with stable placeholders. */
export function normalize(text: string, paths: Record<string, string>): string {
  let result = text
  for (const [name, path] of Object.entries(paths).sort((a, b) => b[1].length - a[1].length))
    result = result.split(path).join(`<${name}>`)
  return result
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/\b([a-z]{1,5})_[a-z0-9]{16,26}\b/g, '<$1-id>')
    .replace(/\b[0-9a-f]{40}\b/g, '<commit>')
    .replace(/"(duration_ms|durationMs)":\s?\d+/g, '"$1":0')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
}
