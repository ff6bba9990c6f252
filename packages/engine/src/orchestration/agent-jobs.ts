import type { JobInfo } from '@z-engine/protocol'
import type { JobPort } from '@z-engine/tools'
import { matchingLines } from '../jobs/matching-lines.js'
import type { AgentEntry } from './agent-entry.js'

/** Background agents seen as jobs: JobOutput shows the latest message, JobKill cancels the agent. */
export class AgentJobs {
  // A resumed background agent gets a new job; its earlier jobs stay readable.
  readonly #byJob = new Map<string, { entry: AgentEntry; job: NonNullable<AgentEntry['job']> }>()

  /** Starts tracking an agent's current job. */
  add(entry: AgentEntry): void {
    if (entry.job) this.#byJob.set(entry.job.info.id, { entry, job: entry.job })
  }

  /** Whether `jobId` is an agent job. */
  has(jobId: string): boolean {
    return this.#byJob.has(jobId)
  }

  /** The agent's latest message if it changed since the last read, after waiting up to `waitMs` for it to end. */
  async read(
    jobId: string,
    options: { filter?: string; waitMs?: number },
    signal: AbortSignal,
  ): Promise<{ output: string; info: JobInfo } | undefined> {
    const tracked = this.#byJob.get(jobId)
    if (!tracked) return undefined
    const { entry, job } = tracked
    if (job.info.status === 'running' && entry.running && (options.waitMs ?? 0) > 0)
      await settledWithin(entry.running, options.waitMs ?? 0, signal)
    const latest = entry.latestText
    const unread = latest === job.lastRead ? '' : latest
    job.lastRead = latest
    return { output: matchingLines(unread, options.filter), info: job.info }
  }

  /** The agent's latest message, without marking it read for the model. */
  peek(jobId: string): { output: string; info: JobInfo } | undefined {
    const tracked = this.#byJob.get(jobId)
    return tracked ? { output: tracked.entry.latestText, info: tracked.job.info } : undefined
  }

  /** Cancels a running agent and waits for it to wind down (its transcript stays valid). */
  async kill(jobId: string): Promise<JobInfo | undefined> {
    const tracked = this.#byJob.get(jobId)
    if (!tracked) return undefined
    const { entry, job } = tracked
    if (job.info.status === 'running') {
      job.controller.abort()
      await entry.running?.catch(() => undefined)
    }
    return job.info
  }

  /** Every agent job, oldest first. */
  list(): JobInfo[] {
    return [...this.#byJob.values()].map(({ job }) => job.info)
  }

  /** Cancels every running agent (session shutdown). */
  async shutdown(): Promise<void> {
    const running = [...this.#byJob.values()].filter(({ job }) => job.info.status === 'running')
    for (const { job } of running) job.controller.abort()
    await Promise.all(running.map(({ entry }) => entry.running?.catch(() => undefined)))
  }
}

async function settledWithin(work: Promise<unknown>, ms: number, signal: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  await Promise.race([
    work.catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms)
      onAbort = () => resolve()
      signal.addEventListener('abort', onAbort, { once: true })
    }),
  ])
  clearTimeout(timer)
  if (onAbort) signal.removeEventListener('abort', onAbort)
}

/** One JobPort over background shells and background agents (spec 003 "Background jobs"). */
export function mergeJobPorts(shells: JobPort, agents: AgentJobs): JobPort {
  return {
    peek: (jobId) => (agents.has(jobId) ? agents.peek(jobId) : shells.peek?.(jobId)),
    spawnShell: (command, options) => shells.spawnShell(command, options),
    read: (jobId, options, signal) =>
      agents.has(jobId) ? agents.read(jobId, options, signal) : shells.read(jobId, options, signal),
    kill: (jobId) => (agents.has(jobId) ? agents.kill(jobId) : shells.kill(jobId)),
    list: () => [...shells.list(), ...agents.list()],
  }
}
