import { DEFAULT_HEAD_BYTES, DEFAULT_TAIL_BYTES, HeadTailBuffer } from './output-buffer.js'
import type { ProcessScope } from './process-scope.js'
import { type ProcessExit, startProcess } from './start-process.js'
import { groupHasMembers } from './supervisor.js'

/** Default and maximum timeouts of a foreground command (2 and 10 minutes). */
export const DEFAULT_TIMEOUT_MS = 120_000
export const MAX_TIMEOUT_MS = 600_000

/** A foreground run. */
export interface RunProcessOptions {
  file: string
  args: string[]
  cwd: string
  env: Record<string, string>
  /** Clamped to 1 ms … {@link MAX_TIMEOUT_MS}; default {@link DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number
  /** Aborting kills the tree. */
  signal?: AbortSignal
  /** Bytes kept from the start and end of the output. */
  headBytes?: number
  tailBytes?: number
  /** Live output, as text, for progress. */
  onOutput?(text: string): void
  /** fd 3 bytes, when set. */
  onReport?(chunk: Buffer): void
  /** SIGTERM-to-SIGKILL grace when killing. */
  killGraceMs?: number
  /** Written to stdin, which is then closed (default: stdin is /dev/null). */
  stdin?: string
  /** Written to fd 4 once the watchdog knows the process's group (see `StartProcessOptions.gate`). */
  gate?: string
  /** Also capture stdout and stderr apart (`stdout`/`stderr` in the result), each capped like `output`. */
  separateStreams?: boolean
  /**
   * Kill what the process left running in its group when it exits (`server &` in a hook): for
   * commands that must not leave anything behind. Off for the Bash tool, whose leftovers the
   * session kills when it closes (its `scope`).
   */
  killLeftovers?: boolean
  /** The owner (a session) whose close kills this process's group and what it left running. */
  scope?: ProcessScope
}

/** What a foreground run produced. */
export interface ProcessResult extends ProcessExit {
  pid: number | undefined
  /** stdout and stderr interleaved, head and tail kept when long. */
  output: string
  outputBytes: number
  /** Bytes dropped from the middle of the output. */
  omittedBytes: number
  /** stdout alone, with `separateStreams`. */
  stdout?: string
  /** stderr alone, with `separateStreams`. */
  stderr?: string
  timedOut: boolean
  aborted: boolean
  durationMs: number
}

/** Clamps a requested timeout to the allowed range. */
export function clampTimeout(timeoutMs: number | undefined): number {
  if (timeoutMs === undefined || !Number.isFinite(timeoutMs)) return DEFAULT_TIMEOUT_MS
  return Math.min(Math.max(1, Math.floor(timeoutMs)), MAX_TIMEOUT_MS)
}

/** Runs a process in its own group to completion, killing the whole tree on timeout or abort. */
export async function runProcess(options: RunProcessOptions): Promise<ProcessResult> {
  const started = Date.now()
  const buffer = new HeadTailBuffer(
    options.headBytes ?? DEFAULT_HEAD_BYTES,
    options.tailBytes ?? DEFAULT_TAIL_BYTES,
  )
  const decoder = options.onOutput ? new TextDecoder('utf-8') : undefined
  const head = options.headBytes ?? DEFAULT_HEAD_BYTES
  const tail = options.tailBytes ?? DEFAULT_TAIL_BYTES
  const apart = options.separateStreams
    ? { stdout: new HeadTailBuffer(head, tail), stderr: new HeadTailBuffer(head, tail) }
    : undefined
  const child = startProcess({
    file: options.file,
    args: options.args,
    cwd: options.cwd,
    env: options.env,
    onOutput: (chunk, stream) => {
      buffer.append(chunk)
      apart?.[stream].append(chunk)
      if (decoder) options.onOutput?.(decoder.decode(chunk, { stream: true }))
    },
    ...(options.onReport ? { onReport: options.onReport } : {}),
    ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
    ...(options.gate !== undefined ? { gate: options.gate } : {}),
    ...(options.scope !== undefined ? { scope: options.scope } : {}),
  })
  let timedOut = false
  let aborted = false
  let killing: Promise<void> | undefined
  const kill = (): void => {
    killing ??= child.killTree(options.killGraceMs)
  }
  const timer = setTimeout(() => {
    timedOut = true
    kill()
  }, clampTimeout(options.timeoutMs))
  const onAbort = (): void => {
    aborted = true
    kill()
  }
  if (options.signal?.aborted) onAbort()
  else options.signal?.addEventListener('abort', onAbort, { once: true })
  try {
    const exit = await child.done
    // The leader is gone; its group id cannot be reused while members remain, so this is safe.
    if (options.killLeftovers && child.pid !== undefined && groupHasMembers(child.pid)) kill()
    // Wait for the kill to finish so no process of the tree outlives the call.
    if (killing) await killing
    const captured = buffer.render()
    return {
      ...exit,
      pid: child.pid,
      output: captured.text,
      outputBytes: captured.totalBytes,
      omittedBytes: captured.omittedBytes,
      ...(apart ? { stdout: apart.stdout.render().text, stderr: apart.stderr.render().text } : {}),
      timedOut,
      aborted,
      durationMs: Date.now() - started,
    }
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', onAbort)
  }
}
