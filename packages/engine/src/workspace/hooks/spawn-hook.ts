import { spawn } from 'node:child_process'
import { DEFAULT_HOOK_TIMEOUT_SECS, type HookCommand } from './types.js'

/** How a hook process ended, before its output is interpreted. */
export interface HookProcessResult {
  exitCode: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  durationMs: number
  timedOut: boolean
  cancelled: boolean
  /** Set when the process could not be started at all. */
  spawnError?: string
}

/** Where and how a hook process runs. */
export interface SpawnHookOptions {
  cwd: string
  /** The complete environment for the hook (the caller decides; nothing is read from process.env). */
  env: Readonly<Record<string, string | undefined>>
  signal?: AbortSignal
}

/** Output kept per stream; a hook that floods stdout must not exhaust memory. */
const MAX_OUTPUT_CHARS = 1024 * 1024
/** After a kill, how long to wait for the pipes to close before giving up on them. */
const DRAIN_AFTER_EXIT_MS = 500

/**
 * Runs one hook command with `/bin/sh -c` in its own process group, writes `stdinJson` to its stdin,
 * and kills the whole group on timeout or abort. Never rejects.
 */
export function spawnHook(
  hook: HookCommand,
  stdinJson: string,
  options: SpawnHookOptions,
): Promise<HookProcessResult> {
  const started = performance.now()
  const timeoutMs = Math.max(0.001, hook.timeoutSecs ?? DEFAULT_HOOK_TIMEOUT_SECS) * 1000
  return new Promise((resolve) => {
    let stdout = ''
    let stderr = ''
    let timedOut = false
    let cancelled = false
    let settled = false
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
    let drainTimer: NodeJS.Timeout | undefined

    const child = spawn('/bin/sh', ['-c', hook.command], {
      cwd: options.cwd,
      env: options.env as NodeJS.ProcessEnv,
      // A group of its own, so a timeout kills the hook's children too (`sleep` in a script, etc.).
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    })

    const killGroup = () => {
      if (child.pid === undefined) return
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }

    const finish = (spawnError?: string) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      clearTimeout(drainTimer)
      options.signal?.removeEventListener('abort', onAbort)
      const result: HookProcessResult = {
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        stdout,
        stderr,
        durationMs: Math.round(performance.now() - started),
        timedOut,
        cancelled,
      }
      if (spawnError !== undefined) result.spawnError = spawnError
      resolve(result)
    }

    const timer = setTimeout(() => {
      timedOut = true
      killGroup()
    }, timeoutMs)
    const onAbort = () => {
      cancelled = true
      killGroup()
    }
    if (options.signal?.aborted) onAbort()
    else options.signal?.addEventListener('abort', onAbort, { once: true })

    child.stdout.setEncoding('utf8')
    child.stderr.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => {
      if (stdout.length < MAX_OUTPUT_CHARS) stdout += chunk.slice(0, MAX_OUTPUT_CHARS - stdout.length)
    })
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < MAX_OUTPUT_CHARS) stderr += chunk.slice(0, MAX_OUTPUT_CHARS - stderr.length)
    })
    // A hook that never reads stdin closes the pipe early; that is not an error.
    child.stdin.on('error', () => {})
    child.on('error', (error) => finish(error.message))
    child.on('exit', (code, signal) => {
      exit = { code, signal }
      // A backgrounded grandchild may hold the pipes open; don't wait for it forever.
      drainTimer = setTimeout(() => finish(), DRAIN_AFTER_EXIT_MS)
    })
    child.on('close', (code, signal) => {
      exit ??= { code, signal }
      finish()
    })
    child.stdin.end(stdinJson)
  })
}
