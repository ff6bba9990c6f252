import { toolDescription } from '@z-engine/prompts'
import { errorResult, textResult } from '../results.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'
import { unknownJob } from './job-output.js'

/** JobKill's input. */
export type JobKillInput = { job_id: string }

/** Stops a background job: a shell with its whole process tree, or an agent. */
export const jobKillTool: Tool<JobKillInput> = {
  name: 'JobKill',
  description: () => toolDescription('JobKill'),
  inputSchema: {
    type: 'object',
    properties: { job_id: { type: 'string', description: 'The id of the background job to stop' } },
    required: ['job_id'],
    additionalProperties: false,
  },
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  action: (input, ctx) => actionFor('JobKill', input, ctx),
  title: (input) => `Stop job ${String(input.job_id ?? '')}`,
  preview: async (input) => ({ type: 'text', text: `Stop background job ${input.job_id}` }),
  call: async (input, ctx) => {
    const jobs = ctx.ports.jobs
    if (!jobs) return errorResult('jobs_unavailable', 'Background jobs are not available in this session.')
    const before = jobs.list().find((job) => job.id === input.job_id)
    const info = await jobs.kill(input.job_id)
    if (!info) return errorResult('not_found', unknownJob(input.job_id, jobs.list()))
    const text =
      before && before.status !== 'running'
        ? `Job ${info.id} had already ${before.status === 'exited' ? `exited with code ${before.exitCode ?? 'unknown'}` : before.status}; any processes it left behind were stopped.`
        : `Job ${info.id} was stopped${info.kind === 'shell' ? ' with its whole process tree' : ''}.`
    return textResult(text, { details: { job: info } })
  },
}
