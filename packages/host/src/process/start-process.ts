import { spawn } from 'node:child_process'
import type { Readable } from 'node:stream'
import { DEFAULT_KILL_GRACE_MS, killProcessTree } from './kill-tree.js'

/** How a process ended. */
export interface ProcessExit {
  /** Exit code, or null when a signal ended it (or it never started). */
  exitCode: number | null
  signal: NodeJS.Signals | null
  /** Why it could not start (`ENOENT`, a missing cwd…), when it could not. */
  spawnError?: string
}

/** What to start. */
export interface StartProcessOptions {
  file: string
  args: string[]
  cwd: string
  env: Record<string, string>
  /** Output of stdout and stderr, interleaved as the process wrote it. */
  onOutput(chunk: Buffer): void
  /** When set, fd 3 is a pipe whose bytes go here (the shell reports its final cwd on it). */
  onReport?(chunk: Buffer): void
}

/** A started process. */
export interface StartedProcess {
  /** The pid, which is also the process group id; undefined when spawning failed. */
  pid: number | undefined
  /** Resolves when the process exited and its output was drained. */
  done: Promise<ProcessExit>
  /** Kills the whole tree (SIGTERM, then SIGKILL after `graceMs`). */
  killTree(graceMs?: number): Promise<void>
}

/**
 * After the process exits, how long to keep reading pipes that a background grandchild
 * (`server &`) still holds open before giving up on them.
 */
const DRAIN_AFTER_EXIT_MS = 200

/**
 * Starts a process as the leader of a new process group (`detached`: setsid on POSIX), with stdin
 * from /dev/null so nothing waits for input, so its whole tree can be signalled at once.
 */
export function startProcess(options: StartProcessOptions): StartedProcess {
  const stdio: Array<'ignore' | 'pipe'> = ['ignore', 'pipe', 'pipe']
  if (options.onReport) stdio.push('pipe')
  let child: ReturnType<typeof spawn>
  try {
    child = spawn(options.file, options.args, { cwd: options.cwd, env: options.env, stdio, detached: true })
  } catch (error) {
    const message = (error as Error).message
    return {
      pid: undefined,
      done: Promise.resolve({ exitCode: null, signal: null, spawnError: message }),
      killTree: async () => {},
    }
  }
  const streams = [child.stdout, child.stderr].filter((stream): stream is Readable => stream !== null)
  for (const stream of streams) stream.on('data', options.onOutput)
  const report = child.stdio[3] as Readable | null | undefined
  if (report && options.onReport) {
    report.on('data', options.onReport)
    streams.push(report)
  }

  const done = new Promise<ProcessExit>((resolve) => {
    let exit: ProcessExit | undefined
    let finished = false
    const finish = (): void => {
      if (finished || exit === undefined) return
      finished = true
      resolve(exit)
    }
    child.once('error', (error) => {
      exit = { exitCode: null, signal: null, spawnError: error.message }
      finish()
    })
    child.once('close', () => finish())
    child.once('exit', (exitCode, signal) => {
      exit = { exitCode, signal }
      setTimeout(() => {
        // A grandchild still holds our pipes: stop reading them so the call can return.
        for (const stream of streams) stream.destroy()
        finish()
      }, DRAIN_AFTER_EXIT_MS).unref()
    })
  })

  const pid = child.pid
  return {
    pid,
    done,
    killTree: (graceMs = DEFAULT_KILL_GRACE_MS) =>
      pid === undefined ? Promise.resolve() : killProcessTree(pid, graceMs),
  }
}
