import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The real Claude Code (`@anthropic-ai/claude-code`, a dev dependency of apps/cli), pinned. */
export const CLAUDE_BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../node_modules/.bin/claude')

/** The version whose output the fixtures hold, and the dev dependency's. */
export const CLAUDE_VERSION = '2.1.332'

/**
 * Whether the live binary runs here (`claude --version` answers with the pinned version). Where it
 * does not (no native package for the platform, the install script not run), tests fall back to
 * the recorded fixtures in `test/golden/claude-code/` and say so loudly.
 */
export function claudeRuns(): boolean {
  if (!existsSync(CLAUDE_BIN)) return false
  const probe = spawnSync(CLAUDE_BIN, ['--version'], { encoding: 'utf8', timeout: 30_000 })
  return probe.status === 0 && probe.stdout.includes(CLAUDE_VERSION)
}

/**
 * Claude Code's environment for a run against a scripted Anthropic server (NOTES-deps §13): its
 * config in a temp folder, no telemetry, updater or other traffic, and, as root, `IS_SANDBOX=1` so
 * `--dangerously-skip-permissions` is accepted.
 */
export async function claudeEnv(root: string, baseUrl: string): Promise<NodeJS.ProcessEnv> {
  const configDir = join(root, 'claude-config')
  await mkdir(configDir, { recursive: true })
  return {
    PATH: process.env.PATH,
    HOME: root,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'test-key',
    CLAUDE_CONFIG_DIR: configDir,
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    IS_SANDBOX: '1',
    GIT_CONFIG_NOSYSTEM: '1',
  }
}

/** Runs a program to its end (stdin closed at once) and returns its code and output. */
export function runProgram(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(command, [...args], { cwd: options.cwd, env: options.env, stdio: 'pipe' })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.on('error', fail)
    child.on('close', (code) => done({ code, stdout, stderr }))
    child.stdin.end(options.stdin ?? '')
  })
}
