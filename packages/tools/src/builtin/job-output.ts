import { toolDescription } from '@z-engine/prompts'
import type { JobInfo } from '@z-engine/protocol'
import { budgetOutput } from '../output-budget.js'
import { errorMessage, errorResult, textResult } from '../results.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'

/** JobOutput's input. */
export type JobOutputInput = { job_id: string; filter?: string; wait_ms?: number }

/** Longest wait for a job to finish (10 minutes). */
export const MAX_WAIT_MS = 600_000

/** Reads a background job's output since the last read. */
export const jobOutputTool: Tool<JobOutputInput> = {
  name: 'JobOutput',
  description: () => toolDescription('JobOutput'),
  inputSchema: {
    type: 'object',
    properties: {
      job_id: { type: 'string', description: 'The id of the background job' },
      filter: {
        type: 'string',
        description: 'Regular expression; only matching output lines are returned (the rest is consumed too)',
      },
      wait_ms: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_WAIT_MS,
        description: 'Wait up to this long for the job to finish first (max 600000)',
      },
    },
    required: ['job_id'],
    additionalProperties: false,
  },
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  action: (input, ctx) => actionFor('JobOutput', input, ctx),
  title: (input) => `Output of job ${String(input.job_id ?? '')}`,
  preview: async () => undefined,
  call: async (input, ctx, signal) => {
    const jobs = ctx.ports.jobs
    if (!jobs) return errorResult('jobs_unavailable', 'Background jobs are not available in this session.')
    if (input.filter !== undefined) {
      try {
        new RegExp(input.filter)
      } catch (error) {
        return errorResult(
          'invalid_filter',
          `filter is not a valid regular expression: ${errorMessage(error)}`,
        )
      }
    }
    const waitMs = Math.min(Math.max(0, Math.floor(input.wait_ms ?? 0)), MAX_WAIT_MS)
    const read = await jobs.read(
      input.job_id,
      { ...(input.filter !== undefined ? { filter: input.filter } : {}), waitMs },
      signal,
    )
    if (!read) return errorResult('not_found', unknownJob(input.job_id, jobs.list()))
    const output = read.output.replace(/\n+$/, '')
    const body = `${statusLine(read.info)}\n${output === '' ? '(no new output since the last read)' : output}`
    return textResult(await budgetOutput(ctx, body, 'log', `job-${read.info.id}`), {
      details: { job: read.info },
    })
  },
}

/** One line saying where a job is. */
export function statusLine(info: JobInfo): string {
  switch (info.status) {
    case 'running':
      return `Job ${info.id} is running.`
    case 'exited':
      return `Job ${info.id} exited with code ${info.exitCode ?? 'unknown'}.`
    case 'killed':
      return `Job ${info.id} was killed.`
    case 'failed':
      return `Job ${info.id} failed.`
    default: {
      const never: never = info.status
      return never
    }
  }
}

/** The message for an unknown job id, listing the known ones. */
export function unknownJob(jobId: string, known: JobInfo[]): string {
  const list = known.map((job) => `${job.id} (${job.status}: ${job.description})`).join(', ')
  return `No job with id "${jobId}". ${known.length > 0 ? `Known jobs: ${list}.` : 'There are no background jobs.'}`
}
