import { type CommandWrapper, type ProcessScope, runProcess } from '@z-engine/host'
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
  /** Confines the hook (a sandbox's wrapper for the shell's argv). */
  wrap?: CommandWrapper
  /** The session whose close kills a hook still running. */
  scope?: ProcessScope
}

/** Output kept per stream (head and tail); a hook that floods stdout must not exhaust memory. */
const HEAD_BYTES = 768 * 1024
const TAIL_BYTES = 256 * 1024
/** A hook is killed at once on timeout or cancel: it already had its time. */
const KILL_GRACE_MS = 200

/**
 * Runs one hook command with `/bin/sh -c` through host's process primitives: its own process group
 * (registered with the watchdog, so it dies with the engine), `stdinJson` on stdin, the whole tree
 * killed on timeout or abort, and whatever it left running in its group (`server &`) killed when
 * it exits, so a hook's background children never keep the engine (or `exec`) alive. Never rejects.
 */
export async function spawnHook(
  hook: HookCommand,
  stdinJson: string,
  options: SpawnHookOptions,
): Promise<HookProcessResult> {
  const timeoutMs = Math.max(1, Math.round((hook.timeoutSecs ?? DEFAULT_HOOK_TIMEOUT_SECS) * 1000))
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(options.env)) if (value !== undefined) env[name] = value
  const shell = ['/bin/sh', '-c', hook.command]
  const argv = options.wrap ? options.wrap(shell, options.cwd) : shell
  const result = await runProcess({
    file: argv[0]!,
    args: argv.slice(1),
    cwd: options.cwd,
    env,
    stdin: stdinJson,
    timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.scope ? { scope: options.scope } : {}),
    separateStreams: true,
    killLeftovers: true,
    headBytes: HEAD_BYTES,
    tailBytes: TAIL_BYTES,
    killGraceMs: KILL_GRACE_MS,
  })
  return {
    exitCode: result.exitCode,
    signal: result.signal,
    stdout: result.stdout ?? '',
    stderr: result.stderr ?? '',
    durationMs: result.durationMs,
    timedOut: result.timedOut,
    cancelled: result.aborted,
    ...(result.spawnError !== undefined ? { spawnError: result.spawnError } : {}),
  }
}
