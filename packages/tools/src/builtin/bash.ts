import { stat } from 'node:fs/promises'
import { provesReadOnly } from '@z-engine/policy'
import { toolDescription } from '@z-engine/prompts'
import { stripAnsi } from '../ansi.js'
import { sandboxRequestOf, type ToolCtx } from '../ctx.js'
import { budgetOutput } from '../output-budget.js'
import { errorMessage, errorResult, textResult } from '../results.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'
import type { ToolResult } from '../tool-result.js'

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  )
}

/** Bash's input (Claude Code's shape); `timeout` is in milliseconds. */
export type BashInput = {
  command: string
  timeout?: number
  description?: string
  run_in_background?: boolean
}

/** Runs a shell command in the agent's persistent cwd, or starts it as a background job. */
export const bashTool: Tool<BashInput> = {
  name: 'Bash',
  description: () => toolDescription('Bash'),
  inputSchema: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The command to run' },
      timeout: {
        type: 'integer',
        minimum: 1,
        maximum: 600_000,
        description: 'Timeout in milliseconds (default 120000, max 600000)',
      },
      description: { type: 'string', description: 'What the command does, in 5-10 words' },
      run_in_background: {
        type: 'boolean',
        description: 'Start the command as a background job and return its id at once',
      },
    },
    required: ['command'],
    additionalProperties: false,
  },
  // Read-only only when the policy's shell analysis proves it (and never for background jobs).
  isReadOnly: (input) =>
    typeof input.command === 'string' && input.run_in_background !== true && provesReadOnly(input.command),
  // A `cd` moves the shared cwd, so such a line runs alone even when it only reads.
  isConcurrencySafe: (input) =>
    bashTool.isReadOnly(input) && !/(^|[\s;&|(`])(cd|pushd|popd)(\s|$|;)/.test(input.command),
  action: (input, ctx) => actionFor('Bash', input, ctx),
  title: (input) => {
    if (typeof input.description === 'string' && input.description.trim() !== '')
      return input.description.trim()
    const firstLine = String(input.command ?? '').split('\n')[0] ?? ''
    return firstLine.length > 80 ? `${firstLine.slice(0, 77)}...` : firstLine
  },
  preview: async (input, ctx) => ({ type: 'command', command: input.command, cwd: ctx.cwd }),
  call: async (input, ctx, signal) => {
    if (typeof input.command !== 'string' || input.command.trim() === '') {
      return errorResult('invalid_input', 'command must be a non-empty string.')
    }
    try {
      return input.run_in_background === true
        ? await startJob(input, ctx)
        : await runForeground(input, ctx, signal)
    } catch (error) {
      return errorResult('bash_failed', `The command could not be run: ${errorMessage(error)}`)
    }
  },
}

async function startJob(input: BashInput, ctx: ToolCtx): Promise<ToolResult> {
  const jobs = ctx.ports.jobs
  if (!jobs) {
    return errorResult(
      'jobs_unavailable',
      'Background jobs are not available in this session; run the command without run_in_background.',
    )
  }
  const info = await jobs.spawnShell(input.command, {
    cwd: ctx.cwd,
    sandbox: sandboxRequestOf(ctx),
    ...(input.description !== undefined ? { description: input.description } : {}),
  })
  return textResult(
    `Started background job ${info.id} in ${ctx.cwd}. Read its output with JobOutput (job_id "${info.id}"; wait_ms waits for it to finish); stop it with JobKill. You will be told when it exits.`,
    { details: { jobId: info.id, background: true } },
  )
}

async function runForeground(input: BashInput, ctx: ToolCtx, signal: AbortSignal): Promise<ToolResult> {
  const requested =
    typeof input.timeout === 'number' && Number.isFinite(input.timeout)
      ? input.timeout
      : ctx.limits.bashDefaultTimeoutMs
  const timeoutMs = Math.min(Math.max(1, Math.floor(requested)), ctx.limits.bashMaxTimeoutMs)
  const notes: string[] = []
  if (!(await isDirectory(ctx.cwd))) {
    // The tracked folder was removed (by a command, a checkout or the user): start over at the root.
    notes.push(
      `The previous working directory ${ctx.cwd} no longer exists; the command ran in ${ctx.projectRoot}.`,
    )
    ctx.setCwd(ctx.projectRoot)
  }
  const result = await ctx.shell.run(input.command, {
    cwd: ctx.cwd,
    timeoutMs,
    signal,
    onOutput: (text) => ctx.progress({ output: text }),
    sandbox: sandboxRequestOf(ctx),
  })
  if (result.cwd !== ctx.cwd) {
    ctx.setCwd(result.cwd)
    notes.push(`Shell cwd is now ${result.cwd}`)
  }
  if (result.spawnError !== undefined) {
    return errorResult(
      'spawn_failed',
      `The shell could not start: ${result.spawnError}. Check that ${ctx.cwd} exists.`,
    )
  }
  const output = stripAnsi(result.output).replace(/\n+$/, '')
  const details = {
    exitCode: result.exitCode,
    signal: result.signal,
    cwd: result.cwd,
    durationMs: result.durationMs,
    timedOut: result.timedOut,
    omittedBytes: result.omittedBytes,
  }
  if (result.timedOut) {
    notes.unshift(
      `Command timed out after ${timeoutMs} ms and was killed with its child processes. For long-running commands use run_in_background, or raise timeout (at most ${ctx.limits.bashMaxTimeoutMs}).`,
    )
  } else if (result.aborted) {
    notes.unshift('Command was cancelled; its processes were killed.')
  } else if (result.exitCode !== 0) {
    notes.unshift(
      result.exitCode === null
        ? `Command was killed by ${result.signal ?? 'a signal'}`
        : `Exit code ${result.exitCode}`,
    )
    if (ctx.confinement === 'rule' && result.confinement !== undefined) notes.push(RULE_CONFINED)
  }
  const body = [output === '' ? '(no output)' : output, ...notes].join('\n')
  const text = await budgetOutput(ctx, body, 'log', 'bash-output')
  if (result.timedOut || result.aborted || result.exitCode !== 0)
    return errorResult(result.timedOut ? 'timeout' : 'exit_code', text)
  return textResult(text, { details })
}

/** Why a rule-allowed command may have failed, and what the user can do about it (issue 34). */
const RULE_CONFINED =
  'It ran in the sandbox, as every command an allow rule covers does: no network unless [shell.sandbox] allow_network, an empty home but for read_paths and write_paths, no ssh keys, credential helpers or unix sockets. If it needs those (git push, npm publish), the user can add it to [shell.sandbox] excluded_commands (for example "git push:*") to run it outside. A line runs outside only when every command in it is excluded (in "npm test && git push" npm test keeps the whole line confined): run an excluded command on a line of its own.'
