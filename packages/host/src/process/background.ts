import { killProcesses, processTree } from './kill-tree.js'
import type { ProcessScope } from './process-scope.js'
import { RingBuffer } from './ring-buffer.js'
import { type CommandWrapper, findShell } from './shell.js'
import { type ProcessExit, type StartedProcess, startProcess } from './start-process.js'
import { releaseGroupIfEmpty } from './supervisor.js'

/** Output kept per background process by default (1 MiB); older output is dropped. */
export const DEFAULT_RING_BYTES = 1024 * 1024

/** Where a background process is in its life. */
export type BackgroundStatus = 'running' | 'exited' | 'killed' | 'failed'

/** A background process as callers see it. */
export interface BackgroundInfo {
  id: string
  pid: number | undefined
  command: string
  cwd: string
  description?: string
  status: BackgroundStatus
  exitCode?: number
  signal?: string
  /** Why it could not start. */
  error?: string
  startedAt: string
  endedAt?: string
  /** Bytes written so far. */
  outputBytes: number
}

/** An incremental read. */
export interface BackgroundRead {
  /** Output since the previous read. */
  output: string
  /** Bytes this reader never saw because the ring buffer overwrote them first. */
  droppedBytes: number
  info: BackgroundInfo
}

interface Entry {
  info: BackgroundInfo
  buffer: RingBuffer
  cursor: number
  process: StartedProcess
  exited: Promise<void>
  /** Processes the shell left running in its group when it exited (`server &`). */
  leftovers?: number[]
}

/** Options of the manager. */
export interface BackgroundProcessesOptions {
  env: Record<string, string>
  ringBytes?: number
  shellPath?: string
  wrap?: CommandWrapper
  killGraceMs?: number
  /** Called on every status change (start, exit, kill), for events and "job finished" reminders. */
  onChange?(info: BackgroundInfo): void
  /** The owner (a session) whose close kills every process started here. */
  scope?: ProcessScope
}

/**
 * Background shell commands (dev servers, long test runs): each in its own process group, its
 * output in a ring buffer read incrementally, its exit reported through `onChange`.
 */
export class BackgroundProcesses {
  private readonly entries = new Map<string, Entry>()
  private counter = 0

  constructor(private readonly options: BackgroundProcessesOptions) {}

  /** Starts `command` through the shell in `cwd`; returns at once. */
  start(
    command: string,
    options: {
      cwd: string
      description?: string
      id?: string
      wrap?: CommandWrapper
      /** This command's environment, when it differs from the manager's. */
      env?: Record<string, string>
    },
  ): BackgroundInfo {
    this.counter += 1
    const id = options.id ?? `bash_${this.counter}`
    const shell = this.options.shellPath ?? findShell(this.options.env.PATH)
    // A per-start wrapper (this command's sandbox) wins over the manager's.
    const wrap = options.wrap ?? this.options.wrap
    const argv = wrap ? wrap([shell, '-c', command], options.cwd) : [shell, '-c', command]
    const buffer = new RingBuffer(this.options.ringBytes ?? DEFAULT_RING_BYTES)
    const child = startProcess({
      file: argv[0]!,
      args: argv.slice(1),
      cwd: options.cwd,
      env: options.env ?? this.options.env,
      onOutput: (chunk) => {
        buffer.append(chunk)
        info.outputBytes = buffer.end
      },
      ...(this.options.scope !== undefined ? { scope: this.options.scope } : {}),
    })
    const info: BackgroundInfo = {
      id,
      pid: child.pid,
      command,
      cwd: options.cwd,
      status: 'running',
      startedAt: new Date().toISOString(),
      outputBytes: 0,
      ...(options.description !== undefined ? { description: options.description } : {}),
    }
    const entry: Entry = { info, buffer, cursor: 0, process: child, exited: Promise.resolve() }
    entry.exited = child.done.then((exit) => {
      if (child.pid !== undefined && process.platform === 'linux') {
        entry.leftovers = processTree(child.pid, []).filter((pid) => pid !== child.pid)
      }
      this.settle(info, exit)
    })
    this.entries.set(id, entry)
    this.options.onChange?.({ ...info })
    return { ...info }
  }

  private settle(info: BackgroundInfo, exit: ProcessExit): void {
    if (info.status === 'running') {
      info.status = exit.spawnError !== undefined ? 'failed' : 'exited'
    }
    if (exit.exitCode !== null) info.exitCode = exit.exitCode
    if (exit.signal !== null) info.signal = exit.signal
    if (exit.spawnError !== undefined) info.error = exit.spawnError
    info.endedAt = new Date().toISOString()
    this.options.onChange?.({ ...info })
  }

  /** A snapshot of one process, or undefined for an unknown id. */
  get(id: string): BackgroundInfo | undefined {
    const entry = this.entries.get(id)
    return entry ? { ...entry.info } : undefined
  }

  /** Every process, oldest first. */
  list(): BackgroundInfo[] {
    return [...this.entries.values()].map((entry) => ({ ...entry.info }))
  }

  /** Output since the last read (and advances the cursor). */
  read(id: string): BackgroundRead | undefined {
    const entry = this.entries.get(id)
    if (!entry) return undefined
    const read = entry.buffer.readFrom(entry.cursor, entry.info.status !== 'running')
    entry.cursor = read.next
    return { output: read.text, droppedBytes: read.droppedBytes, info: { ...entry.info } }
  }

  /** Everything still kept of a process's output, without moving the read cursor (what the user looks at). */
  peek(id: string): BackgroundRead | undefined {
    const entry = this.entries.get(id)
    if (!entry) return undefined
    const read = entry.buffer.readFrom(0, entry.info.status !== 'running')
    return { output: read.text, droppedBytes: read.droppedBytes, info: { ...entry.info } }
  }

  /**
   * Waits until the process exits, `timeoutMs` passes or `signal` aborts, whichever comes first;
   * resolves with its snapshot (undefined for an unknown id).
   */
  async waitForExit(
    id: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<BackgroundInfo | undefined> {
    const entry = this.entries.get(id)
    if (!entry) return undefined
    if (entry.info.status === 'running' && timeoutMs > 0 && !signal?.aborted) {
      let timer: NodeJS.Timeout | undefined
      let onAbort: (() => void) | undefined
      await Promise.race([
        entry.exited,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, timeoutMs)
          onAbort = resolve
          signal?.addEventListener('abort', onAbort, { once: true })
        }),
      ])
      clearTimeout(timer)
      if (onAbort) signal?.removeEventListener('abort', onAbort)
    }
    return { ...entry.info }
  }

  /** Kills a process with its whole tree; resolves with its final snapshot. */
  async kill(id: string): Promise<BackgroundInfo | undefined> {
    const entry = this.entries.get(id)
    if (!entry) return undefined
    if (entry.info.status === 'running') {
      entry.info.status = 'killed'
      await entry.process.killTree(this.options.killGraceMs)
    } else if (entry.leftovers) {
      // The shell exited, but children it left behind (`server &`) may still run. Only those pids
      // are signalled: the group id may by now belong to an unrelated process group.
      await killProcesses(entry.leftovers, this.options.killGraceMs)
      if (entry.info.pid !== undefined) releaseGroupIfEmpty(entry.info.pid)
    } else {
      await entry.process.killTree(this.options.killGraceMs)
    }
    await entry.exited
    return { ...entry.info }
  }

  /** Kills every running process (session shutdown). */
  async killAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((id) => this.kill(id)))
  }
}
