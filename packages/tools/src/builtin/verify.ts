import { toolDescription } from '@z-engine/prompts'
import { type ActionCtx, sandboxRequestOf } from '../ctx.js'
import { guardPort, portMissing } from '../port-results.js'
import type { CheckCommandRunner, CheckInfo } from '../ports.js'
import { errorResult, textResult } from '../results.js'
import type { Tool, ToolParts } from '../tool.js'
import { actionFor, verifyCheckLines } from '../tool-actions.js'

/** Verify's input: list the checks, or run some (all when `checks` is omitted). */
export interface VerifyInput {
  action: 'list' | 'run'
  checks?: string[]
}

const NAME = 'Verify'

/** Verify: lists and runs the project's checks through the CheckPort, which records the evidence. */
export const verifyTool: Tool<VerifyInput> = {
  name: NAME,
  description: () => toolDescription(NAME),
  inputSchema: {
    type: 'object',
    properties: {
      action: { type: 'string', enum: ['list', 'run'], description: '`list` the checks, or `run` them.' },
      checks: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        description: 'Ids of the checks to run (from `list`); every check when omitted.',
      },
    },
    required: ['action'],
    additionalProperties: false,
  },
  // Running checks runs project commands (build scripts may write outputs).
  isReadOnly: (input) => input.action === 'list',
  isConcurrencySafe: (input) => input.action === 'list',
  action: (input, ctx) => actionFor(NAME, input, ctx),
  title: (input) => {
    if (input.action === 'list') return 'List checks'
    return Array.isArray(input.checks) && input.checks.length > 0
      ? `Run checks ${input.checks.join(', ')}`
      : 'Run all checks'
  },
  // The approval card shows the commands the checks run.
  preview: async (input, ctx) => {
    if (input.action !== 'run' || ctx.ports.checks === undefined) return undefined
    const known = await ctx.ports.checks.list()
    const lines = verifyCheckLines(input as unknown as Record<string, unknown>, { ...ctx, checks: known })
    if (lines === undefined) return undefined
    return { type: 'command', command: lines.map((check) => check.line).join('\n'), cwd: ctx.projectRoot }
  },
  parts: (input, ctx) => verifyParts(input, ctx),
  async call(input, ctx, signal) {
    const checks = ctx.ports.checks
    if (checks === undefined) return portMissing(NAME, 'verification service')
    return guardPort(NAME, async () => {
      const known = await checks.list()
      switch (input.action) {
        case 'list':
          return textResult(renderList(known), { details: { checks: known } })
        case 'run': {
          if (known.length === 0) return errorResult('no_checks', noChecks)
          const requested = input.checks ?? known.map((check) => check.id)
          const unknown = requested.filter((id) => !known.some((check) => check.id === id))
          if (unknown.length > 0) {
            return errorResult(
              'unknown_check',
              `No check ${unknown.map((id) => `'${id}'`).join(', ')}; available: ${known.map((check) => check.id).join(', ')}.`,
            )
          }
          if (requested.length === 0)
            return errorResult(
              'invalid_input',
              'Name at least one check to run, or omit `checks` to run them all.',
            )
          // Each check runs as this call's Bash would: its sandbox, environment and cancellation.
          // A check runs the project's own code (its test script), so it is confined in write mode
          // whenever a backend exists, approved or not, like the stop boundary's (issue 34).
          const request = sandboxRequestOf(ctx)
          const runner: CheckCommandRunner = (command, options) =>
            ctx.shell.run(command, {
              cwd: options.cwd,
              timeoutMs: options.timeoutMs,
              signal,
              sandbox: request.granted === undefined ? { ...request, granted: 'write' } : request,
              ...(options.onOutput !== undefined ? { onOutput: options.onOutput } : {}),
            })
          return checks.run([...new Set(requested)], runner, signal)
        }
        default: {
          const never: never = input.action
          return errorResult('invalid_input', `Unknown action '${String(never)}'; use 'list' or 'run'.`)
        }
      }
    })
  },
}

/** Each check of a run is its own permission: `Verify(test)` may allow it while the build asks. */
function verifyParts(input: VerifyInput, ctx: ActionCtx): ToolParts<VerifyInput> | undefined {
  if (input.action !== 'run') return undefined
  const lines = verifyCheckLines(input as unknown as Record<string, unknown>, ctx)
  if (lines === undefined) return undefined
  const unique = lines.filter((check, index) => lines.findIndex((other) => other.id === check.id) === index)
  return {
    parts: unique.map((check) => ({
      id: check.id,
      title: `${check.id} (${check.command})`,
      action: { type: 'execute', command: check.line, cwd: ctx.projectRoot, check: check.id },
    })),
    only: (ids) => ({ action: 'run', checks: [...ids] }),
  }
}

const noChecks =
  'No checks were found for this project (no test, build, typecheck or lint command was discovered). Run the relevant command with Bash instead, or ask the user to configure [[verification.checks]] in settings.'

function renderList(checks: CheckInfo[]): string {
  if (checks.length === 0) return noChecks
  const lines = checks.map(
    (check) => `- ${check.id} (${check.kind}): ${check.command}  [from ${check.source}]`,
  )
  return `Checks for this project:\n${lines.join('\n')}\n\nRun them with action "run" and their ids in \`checks\`.`
}
