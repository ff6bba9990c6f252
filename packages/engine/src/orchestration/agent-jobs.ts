import type { JobInfo } from '@z-engine/protocol'
import type { JobPort } from '@z-engine/tools'
import type { AgentEntry } from './agent-entry.js'

/** Background agents seen as jobs: JobOutput shows the latest message, JobKill cancels the agent. */
export class AgentJobs {
  readonly #byJob = new Map<string, AgentEntry>()

  /** Starts tracking an agent's job. */
  add(entry: AgentEntry): void {
    if (entry.job) this.#byJob.set(entry.job.info.id, entry)
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
    const entry = this.#byJob.get(jobId)
    const job = entry?.job
    if (!entry || !job) return undefined
    if (job.info.status === 'running' && entry.running && (options.waitMs ?? 0) > 0)
      await settledWithin(entry.running, options.waitMs ?? 0, signal)
    const latest = entry.latestText
    let output = latest === job.lastRead ? '' : latest
    job.lastRead = latest
    if (options.filter !== undefined) {
      const pattern = new RegExp(options.filter)
      output = output
        .split('\n')
        .filter((line) => pattern.test(line))
        .join('\n')
    }
    return { output, info: job.info }
  }

  /** Cancels a running agent and waits for it to wind down (its transcript stays valid). */
  async kill(jobId: string): Promise<JobInfo | undefined> {
    const entry = this.#byJob.get(jobId)
    const job = entry?.job
    if (!entry || !job) return undefined
    if (job.info.status === 'running') {
      job.controller.abort()
      await entry.running?.catch(() => undefined)
    }
    return entry.job?.info
  }

  /** Every agent job, oldest first. */
  list(): JobInfo[] {
    return [...this.#byJob.values()].flatMap((entry) => (entry.job ? [entry.job.info] : []))
  }

  /** Cancels every running agent (session shutdown). */
  async shutdown(): Promise<void> {
    const running = [...this.#byJob.values()].filter((entry) => entry.job?.info.status === 'running')
    for (const entry of running) entry.job?.controller.abort()
    await Promise.all(running.map((entry) => entry.running?.catch(() => undefined)))
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
    spawnShell: (command, options) => shells.spawnShell(command, options),
    read: (jobId, options, signal) =>
      agents.has(jobId) ? agents.read(jobId, options, signal) : shells.read(jobId, options, signal),
    kill: (jobId) => (agents.has(jobId) ? agents.kill(jobId) : shells.kill(jobId)),
    list: () => [...shells.list(), ...agents.list()],
  }
}
