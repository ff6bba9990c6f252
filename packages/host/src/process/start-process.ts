import { spawn } from 'node:child_process'
import type { Readable, Writable } from 'node:stream'
import { DEFAULT_KILL_GRACE_MS, killProcessTree } from './kill-tree.js'
import type { ProcessScope } from './process-scope.js'
import { prepareSupervision, releaseGroupIfEmpty, superviseGroup } from './supervisor.js'

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
  /** Output of stdout and stderr, interleaved as the process wrote it (`stream` says which). */
  onOutput(chunk: Buffer, stream: 'stdout' | 'stderr'): void
  /** Written to the process's stdin, which is then closed; without it stdin is /dev/null. */
  stdin?: string
  /** When set, fd 3 is a pipe whose bytes go here (the shell reports its final cwd on it). */
  onReport?(chunk: Buffer): void
  /**
   * When set, fd 4 is a pipe that receives this text, then end of file, right after the group is
   * registered with the watchdog. A process that reads it before doing anything (the shell
   * wrapper) cannot run unsupervised: if this process dies first, it reads end of file alone.
   */
  gate?: string
  /** The owner (a session) whose close kills this process's group. */
  scope?: ProcessScope
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
 * from /dev/null (or the given text) so nothing waits for input, so its whole tree can be
 * signalled at once. The group is registered with the watchdog (`supervisor.ts`), which kills it
 * if this process dies while it runs.
 */
export function startProcess(options: StartProcessOptions): StartedProcess {
  const stdio: Array<'ignore' | 'pipe'> = [options.stdin !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe']
  if (options.onReport || options.gate !== undefined) stdio.push(options.onReport ? 'pipe' : 'ignore')
  if (options.gate !== undefined) stdio.push('pipe')
  let child: ReturnType<typeof spawn>
  // The watchdog first: registering the group right after the spawn leaves no gap to die in.
  prepareSupervision()
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
  // Registered before anything can fail, so the watchdog kills the group if the engine dies.
  if (child.pid !== undefined) {
    superviseGroup(child.pid)
    options.scope?.add(child.pid)
  }
  const streams = [child.stdout, child.stderr].filter((stream): stream is Readable => stream !== null)
  child.stdout?.on('data', (chunk: Buffer) => options.onOutput(chunk, 'stdout'))
  child.stderr?.on('data', (chunk: Buffer) => options.onOutput(chunk, 'stderr'))
  if (child.stdin && options.stdin !== undefined) {
    // A process that never reads its stdin closes the pipe early; that is not an error.
    child.stdin.on('error', () => {})
    child.stdin.end(options.stdin)
  }
  const gate = child.stdio[4] as Writable | null | undefined
  if (gate && options.gate !== undefined) {
    gate.on('error', () => {})
    gate.end(options.gate)
  }
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
      if (child.pid !== undefined) releaseGroupIfEmpty(child.pid)
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
      pid === undefined
        ? Promise.resolve()
        : killProcessTree(pid, graceMs).then(() => releaseGroupIfEmpty(pid)),
  }
}
