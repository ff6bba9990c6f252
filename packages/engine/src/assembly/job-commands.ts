import type { AgentInfo, JobInfo } from '@z-engine/protocol'
import type { JobPort } from '@z-engine/tools'
import type { CommandAction } from '../session/session-types.js'

/** What `/worktrees` reaches: the chat's worktree agents and their diffs (the orchestrator's). */
export interface WorktreeAccess {
  list(): Promise<AgentInfo[]>
  diff(agentId: string): Promise<{ ok: true; diff: string } | { ok: false; message: string }>
}

/** How many lines of a job's output `/jobs output` shows (its end; the rest is counted). */
const OUTPUT_LINES = 200

const usage = (message: string): CommandAction => ({ type: 'notice', level: 'warning', message })

/** The one item whose id is `given` or starts with it, or why there is none. */
function pick<T>(items: readonly T[], idOf: (item: T) => string, given: string, what: string): T | string {
  const exact = items.find((item) => idOf(item) === given)
  if (exact !== undefined) return exact
  const matches = items.filter((item) => idOf(item).startsWith(given))
  if (matches.length === 1) return matches[0] as T
  const known = items.map(idOf).join(', ') || 'none'
  return matches.length === 0
    ? `No ${what} '${given}'. Known: ${known}.`
    : `'${given}' names more than one ${what} (${matches.map(idOf).join(', ')}); give more of the id.`
}

function jobLine(job: JobInfo): string {
  const ended =
    job.status === 'running'
      ? 'running'
      : `${job.status}${job.exitCode !== undefined ? ` (exit ${job.exitCode})` : ''}`
  return `- \`${job.id}\` ${job.kind} · ${ended} · ${job.description.split('\n')[0]}`
}

/**
 * `/jobs [output|stop <id>]`: the session's background jobs (shells and agents), one's output as far
 * as it is kept (without consuming what the model has yet to read), or stopping one (its whole
 * process tree) — the JobPort the JobOutput and JobKill tools and the `killJob` command use.
 */
export async function jobsCommand(args: string, jobs: JobPort | undefined): Promise<CommandAction> {
  const output = (markdown: string): CommandAction => ({ type: 'output', name: 'jobs', markdown })
  if (jobs === undefined) return usage('This session runs no background jobs.')
  const [verb = '', given = '', ...rest] = args.trim().split(/\s+/)
  if (verb === '') {
    const all = jobs.list()
    if (all.length === 0) return output('No background jobs in this session.')
    return output(
      [...all.map(jobLine), '', '`/jobs output <id>` shows a job’s output; `/jobs stop <id>` stops it.'].join(
        '\n',
      ),
    )
  }
  if ((verb !== 'output' && verb !== 'stop') || given === '' || rest.length > 0)
    return usage('Usage: /jobs, /jobs output <id>, /jobs stop <id>')
  const job = pick(jobs.list(), (item) => item.id, given, 'job')
  if (typeof job === 'string') return usage(job)
  if (verb === 'stop') {
    if (job.status !== 'running') return output(`Job \`${job.id}\` is not running (${job.status}).`)
    const stopped = await jobs.kill(job.id)
    return output(`Stopped job \`${job.id}\` (${stopped?.status ?? 'killed'}): ${job.description}`)
  }
  const peeked = jobs.peek?.(job.id)
  if (peeked === undefined) return usage(`Job '${job.id}' has no output to show.`)
  const lines = peeked.output.replace(/\n$/, '').split('\n')
  const hidden = Math.max(0, lines.length - OUTPUT_LINES)
  const shown = lines.slice(hidden).join('\n').replaceAll('```', '`\u200b``')
  return output(
    [
      jobLine(peeked.info).slice(2),
      '',
      ...(peeked.output.trim() === '' ? ['(no output yet)'] : []),
      ...(hidden > 0 ? [`… ${hidden} earlier lines`] : []),
      ...(peeked.output.trim() === '' ? [] : ['```', shown, '```']),
    ].join('\n'),
  )
}

function worktreeLine(agent: AgentInfo): string {
  const state = agent.worktree
  const what = `\`${agent.id}\` ${agent.agentType}: ${agent.description}`
  switch (state.type) {
    case 'pending':
      return `- ${what} · pending: ${state.summary}`
    case 'conflicted':
      return `- ${what} · conflicted (${state.conflicts.join(', ')}); the project was left as it was`
    case 'active':
      return `- ${what} · still working in ${state.path}`
    case 'none':
    case 'empty':
    case 'applied':
    case 'discarded':
      return `- ${what} · ${state.type}`
    default: {
      const unreachable: never = state
      return unreachable
    }
  }
}

/**
 * `/worktrees [diff|apply|discard <id>]`: the chat's worktree agents whose changes wait, one's diff,
 * or applying (three-way merge) or discarding them — as the `applyAgentChanges` and
 * `discardAgentChanges` commands do.
 */
export async function worktreesCommand(
  args: string,
  worktrees: WorktreeAccess | undefined,
): Promise<CommandAction> {
  const output = (markdown: string): CommandAction => ({ type: 'output', name: 'worktrees', markdown })
  if (worktrees === undefined) return usage('This session has no subagents (agents.max_depth is 0).')
  const [verb = '', given = '', ...rest] = args.trim().split(/\s+/)
  const all = await worktrees.list()
  if (verb === '') {
    if (all.length === 0) return output('No worktree agent has changes waiting.')
    return output(
      [
        ...all.map(worktreeLine),
        '',
        '`/worktrees diff <id>` shows the changes; `/worktrees apply <id>` merges them into the project; `/worktrees discard <id>` removes them.',
      ].join('\n'),
    )
  }
  if ((verb !== 'diff' && verb !== 'apply' && verb !== 'discard') || given === '' || rest.length > 0)
    return usage('Usage: /worktrees, /worktrees diff <id>, /worktrees apply <id>, /worktrees discard <id>')
  const agent = pick(all, (item) => item.id, given, 'worktree agent with changes')
  if (typeof agent === 'string') return usage(agent)
  switch (verb) {
    case 'apply':
      return { type: 'command', command: { type: 'applyAgentChanges', agentId: agent.id } }
    case 'discard':
      return { type: 'command', command: { type: 'discardAgentChanges', agentId: agent.id } }
    case 'diff': {
      const diff = await worktrees.diff(agent.id)
      if (!diff.ok) return usage(`Could not show agent ${agent.id}'s changes: ${diff.message}.`)
      return output(
        [
          worktreeLine(agent).slice(2),
          '',
          diff.diff.trim() === ''
            ? '(no changes)'
            : ['```diff', diff.diff.replace(/\n$/, ''), '```'].join('\n'),
        ].join('\n'),
      )
    }
    default: {
      const unreachable: never = verb
      return unreachable
    }
  }
}
