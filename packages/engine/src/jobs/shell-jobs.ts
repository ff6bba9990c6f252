import {
  type BackgroundInfo,
  BackgroundProcesses,
  type CommandSandbox,
  type CommandWrapper,
  neutralisesGit,
  type PreparedSandbox,
  type ProcessScope,
  type SandboxRequest,
  withNeutralGit,
} from '@z-engine/host'
import type { JobInfo } from '@z-engine/protocol'
import type { JobPort } from '@z-engine/tools'
import { matchingLines } from './matching-lines.js'

/** Options of {@link ShellJobs}. */
export interface ShellJobsOptions {
  /** Environment of background shells (already filtered by the environment policy). */
  env: Record<string, string>
  /** Called on every status change (started, exited, killed): jobUpdated events and "job finished" reminders. */
  onUpdate?(info: JobInfo): void
  /** Output kept per job (ring buffer). */
  ringBytes?: number
  shellPath?: string
  /** Sandbox wrapper for the shell's argv (every job). */
  wrap?: CommandWrapper
  /** Confines each job as its request asks (wins over `wrap`). */
  sandbox?: CommandSandbox
  killGraceMs?: number
  /** The session whose close kills every job's process tree. */
  scope?: ProcessScope
}

/**
 * The JobPort for background shells over host's background-process manager. Jobs belong to the
 * session: they survive a cancelled turn and die at `shutdown()`. The engine merges these with its
 * background agents.
 */
export class ShellJobs implements JobPort {
  private readonly processes: BackgroundProcesses
  /** Sandboxes of running jobs, released when they end. */
  private readonly prepared = new Map<string, PreparedSandbox>()

  constructor(private readonly options: ShellJobsOptions) {
    this.processes = new BackgroundProcesses({
      env: options.env,
      ...(options.ringBytes !== undefined ? { ringBytes: options.ringBytes } : {}),
      ...(options.shellPath !== undefined ? { shellPath: options.shellPath } : {}),
      ...(options.wrap !== undefined ? { wrap: options.wrap } : {}),
      ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
      ...(options.scope !== undefined ? { scope: options.scope } : {}),
      onChange: (info) => {
        if (info.status !== 'running') {
          void this.prepared.get(info.id)?.release()
          this.prepared.delete(info.id)
        }
        this.options.onUpdate?.(toJobInfo(info))
      },
    })
  }

  /** Starts a command in the background and returns its job at once. */
  async spawnShell(
    command: string,
    options: { cwd: string; description?: string; sandbox?: SandboxRequest },
  ): Promise<JobInfo> {
    const { sandbox: request, ...given } = options
    // A line the policy auto-allowed runs git with the repository's program-running keys overridden.
    const start = neutralisesGit(request) ? { ...given, env: withNeutralGit(this.options.env) } : given
    const prepared = request ? await this.options.sandbox?.prepare(request) : undefined
    if (!prepared) return toJobInfo(this.processes.start(command, start))
    const info = this.processes.start(command, { ...start, wrap: prepared.wrap })
    if (info.status === 'running') this.prepared.set(info.id, prepared)
    else await prepared.release()
    return toJobInfo(info)
  }

  /** Output since the last read, after waiting up to `waitMs` for the job to finish. */
  async read(
    jobId: string,
    options: { filter?: string; waitMs?: number },
    signal: AbortSignal,
  ): Promise<{ output: string; info: JobInfo } | undefined> {
    if (!this.processes.get(jobId)) return undefined
    await this.processes.waitForExit(jobId, options.waitMs ?? 0, signal)
    const read = this.processes.read(jobId)
    if (!read) return undefined
    let output = matchingLines(read.output, options.filter)
    if (read.droppedBytes > 0) {
      output = `[... ${read.droppedBytes} bytes of earlier output were dropped before this read ...]\n${output}`
    }
    return { output, info: toJobInfo(read.info) }
  }

  /** What the job printed, as far as it is kept, without consuming the model's unread output. */
  peek(jobId: string): { output: string; info: JobInfo } | undefined {
    const read = this.processes.peek(jobId)
    if (!read) return undefined
    const dropped =
      read.droppedBytes > 0 ? `[... ${read.droppedBytes} bytes of earlier output were not kept ...]\n` : ''
    return { output: `${dropped}${read.output}`, info: toJobInfo(read.info) }
  }

  /** Kills a job's whole process tree. */
  async kill(jobId: string): Promise<JobInfo | undefined> {
    const info = await this.processes.kill(jobId)
    return info ? toJobInfo(info) : undefined
  }

  /** Every shell job, oldest first. */
  list(): JobInfo[] {
    return this.processes.list().map(toJobInfo)
  }

  /** Kills every running job (session shutdown). */
  shutdown(): Promise<void> {
    return this.processes.killAll()
  }
}

/** A background process as the protocol's JobInfo. */
export function toJobInfo(info: BackgroundInfo): JobInfo {
  return {
    id: info.id,
    kind: 'shell',
    description: info.description ?? info.command,
    status: info.status,
    startedAt: info.startedAt,
    ...(info.exitCode !== undefined ? { exitCode: info.exitCode } : {}),
    ...(info.endedAt !== undefined ? { endedAt: info.endedAt } : {}),
  }
}
