import { existsSync, statSync } from 'node:fs'
import { delimiter, isAbsolute, join } from 'node:path'
import type { ProcessScope } from './process-scope.js'
import { type ProcessResult, runProcess } from './run-process.js'

/**
 * One shell command per process, with the working directory carried between calls. A wrapper
 * script runs the command with `eval` in the tracked cwd and, from an EXIT trap, writes the final
 * `$PWD` to fd 3 (a pipe only we read). Design choices:
 *
 * - A fresh `bash -c` per call rather than one long-lived shell: a timed-out or killed command
 *   cannot leave the shell in a broken state (half-read heredoc, stuck job control), each call is
 *   its own process group so its whole tree can be killed, and output needs no end-of-command
 *   sentinel that a program could print by accident.
 * - fd 3 rather than a marker in stdout: the model's output is never parsed, and programs that
 *   print anything cannot forge a cwd. The command itself runs with fd 3 closed (`3>&-`), so its
 *   children never hold the report pipe.
 * - The EXIT trap also runs after `exit N` in the command; when the command is killed (timeout,
 *   cancel), no cwd is reported and the previous one stays. A signal lands inside the command's
 *   `3>&-`, so the trap's write then fails: its error goes to /dev/null, not into the output the
 *   user and model see (`line 1: 3: Bad file descriptor` after every interrupt).
 * - The command waits for a go line on fd 4, which the engine writes only after the process
 *   watchdog knows the command's group (`startProcess`'s `gate`). An engine killed in between (a
 *   SIGKILL under load can land there) leaves a shell that reads end of file and exits without
 *   running anything, rather than a command nobody will kill. Not stdin: bash reads ~/.bashrc when
 *   its stdin is a socket, which is what Node's pipes are.
 */
const WRAPPER = [
  'IFS= read -r __z_engine_go <&4 || exit 125',
  'exec 4<&-; unset __z_engine_go',
  '__z_engine_command=$1',
  'shift',
  `trap '{ printf "%s" "$PWD" >&3; } 2>/dev/null' EXIT`,
  'eval "$__z_engine_command" 3>&-',
].join('\n')

/** What the wrapper reads before it runs the command (see {@link WRAPPER}). */
const GO_LINE = 'go\n'

/** A command that wraps the shell's argv (a sandbox backend: bubblewrap, seatbelt). */
export type CommandWrapper = (argv: string[], cwd: string) => string[]

/** Options of one shell run. */
export interface ShellRunOptions {
  /** The directory the command starts in (the agent's persistent cwd). */
  cwd: string
  env: Record<string, string>
  timeoutMs?: number
  signal?: AbortSignal
  onOutput?(text: string): void
  headBytes?: number
  tailBytes?: number
  killGraceMs?: number
  /** The shell; default: `bash` from PATH, else `/bin/sh`. */
  shellPath?: string
  wrap?: CommandWrapper
  /** The owner (a session) whose close kills what the command left running. */
  scope?: ProcessScope
}

/** A shell run's result: the process result plus where the command left the working directory. */
export interface ShellRunResult extends ProcessResult {
  /** The cwd after the command (unchanged when it was killed or did not report one). */
  cwd: string
}

/** Finds `bash` in PATH's absolute folders (falls back to `/bin/sh`); never a relative entry's. */
export function findShell(path = process.env.PATH ?? ''): string {
  for (const dir of path.split(delimiter)) {
    if (!isAbsolute(dir)) continue
    const candidate = join(dir, 'bash')
    if (existsSync(candidate)) return candidate
  }
  return '/bin/sh'
}

/** Runs one command through the wrapper and reports the final cwd. */
export async function runShellCommand(command: string, options: ShellRunOptions): Promise<ShellRunResult> {
  const shell = options.shellPath ?? findShell(options.env.PATH)
  const argv = [shell, '-c', WRAPPER, 'z-engine-shell', command]
  const wrapped = options.wrap ? options.wrap(argv, options.cwd) : argv
  const reported: Buffer[] = []
  const result = await runProcess({
    file: wrapped[0]!,
    args: wrapped.slice(1),
    cwd: options.cwd,
    env: options.env,
    onReport: (chunk) => reported.push(chunk),
    gate: GO_LINE,
    ...pick(options),
  })
  const finalCwd = Buffer.concat(reported).toString('utf8')
  return { ...result, cwd: finalCwd !== '' && isDirectory(finalCwd) ? finalCwd : options.cwd }
}

function pick(options: ShellRunOptions): Partial<Parameters<typeof runProcess>[0]> {
  const picked: Partial<Parameters<typeof runProcess>[0]> = {}
  if (options.timeoutMs !== undefined) picked.timeoutMs = options.timeoutMs
  if (options.signal !== undefined) picked.signal = options.signal
  if (options.onOutput !== undefined) picked.onOutput = options.onOutput
  if (options.headBytes !== undefined) picked.headBytes = options.headBytes
  if (options.tailBytes !== undefined) picked.tailBytes = options.tailBytes
  if (options.killGraceMs !== undefined) picked.killGraceMs = options.killGraceMs
  if (options.scope !== undefined) picked.scope = options.scope
  return picked
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/**
 * An agent's shell: runs commands one process each while the working directory persists between
 * calls. When the tracked directory disappears, commands start in `fallbackCwd` and the result says so.
 */
export class PersistentShell {
  private current: string

  constructor(
    private readonly options: {
      cwd: string
      fallbackCwd: string
      env: Record<string, string>
      shellPath?: string
      wrap?: CommandWrapper
    },
  ) {
    this.current = options.cwd
  }

  /** The tracked working directory. */
  get cwd(): string {
    return this.current
  }

  /** Moves the tracked working directory (a resumed session, a rewind). */
  setCwd(cwd: string): void {
    this.current = cwd
  }

  /** Runs a command in the tracked cwd and tracks where it ends. */
  async run(
    command: string,
    options: Omit<ShellRunOptions, 'cwd' | 'env' | 'shellPath' | 'wrap'> = {},
  ): Promise<ShellRunResult & { cwdReset: boolean }> {
    const cwdReset = !isDirectory(this.current)
    if (cwdReset) this.current = this.options.fallbackCwd
    const result = await runShellCommand(command, {
      ...options,
      cwd: this.current,
      env: this.options.env,
      ...(this.options.shellPath ? { shellPath: this.options.shellPath } : {}),
      ...(this.options.wrap ? { wrap: this.options.wrap } : {}),
    })
    this.current = result.cwd
    return { ...result, cwdReset }
  }
}
