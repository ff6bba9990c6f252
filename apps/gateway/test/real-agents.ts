/**
 * Real coding agents from npm (the Codex CLI, Claude Code) run against the gateway: a buggy git
 * repository in a temp dir, a private HOME/config for the agent, and the agent as a child process.
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** The bug the agents fix. */
export const BUG = 'export function add(a, b) {\n  return a - b\n}\n'
/** What the agents are asked. */
export const PROMPT = 'add.js has a bug: add subtracts. Fix it.'

/** A git repository holding add.js with the bug, committed. */
export function buggyRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-agent-repo-'))
  writeFileSync(join(dir, 'add.js'), BUG)
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' })
  git('init', '-q')
  git('add', '-A')
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'add')
  return dir
}

/** `git diff` of the repository's working tree. */
export function gitDiff(dir: string): string {
  return execFileSync('git', ['diff'], { cwd: dir, encoding: 'utf8' })
}

const require = createRequire(import.meta.url)

/** The path of a bin an installed dev dependency ships (`@openai/codex` → `bin/codex.js`). */
export function binOf(pkg: string, bin: string): string {
  const manifest = require.resolve(`${pkg}/package.json`)
  const { bin: bins } = require(manifest) as { bin: Record<string, string> }
  const file = bins[bin]
  if (!file) throw new Error(`${pkg} has no bin '${bin}'`)
  return join(dirname(manifest), file)
}

/** How a run ended. */
export interface AgentRun {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs a program to its exit with stdin closed (a bounded run: killed after `timeoutMs`). */
export function runAgent(
  file: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<AgentRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs,
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8')
    })
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
}
