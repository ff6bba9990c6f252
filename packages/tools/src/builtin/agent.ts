import { toolDescription } from '@z-engine/prompts'
import type { ToolCtx } from '../ctx.js'
import { budgetOutput } from '../output-budget.js'
import { guardPort, portMissing } from '../port-results.js'
import type { AgentRunResult, AgentSpawnRequest } from '../ports.js'
import { errorResult, textResult } from '../results.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'
import type { ToolResult } from '../tool-result.js'

/** Agent's input (Claude Code's shape). */
export interface AgentInput {
  description: string
  prompt: string
  subagent_type: string
  run_in_background?: boolean
  /** The id of a finished agent to continue. */
  resume?: string
  /** `inherit`, a role (`main`, `fast`, `review`) or a model id. */
  model?: string
  isolation?: 'worktree'
}

const NAME = 'Agent'

/** The agent types offered to the model, for the description. */
export type AgentCatalog = () => Array<{ name: string; description: string }>

/**
 * Agent: starts a subagent through the AgentPort. With `catalog`, the description lists the agent
 * types (that list is how the model chooses one); the registry passes the AgentPort's catalog.
 */
export function createAgentTool(catalog?: AgentCatalog): Tool<AgentInput> {
  return {
    name: NAME,
    description: () => {
      const base = toolDescription(NAME)
      const types = catalog?.() ?? []
      if (types.length === 0) return base
      return `${base}\n\nAvailable agent types:\n${types.map((type) => `- ${type.name}: ${type.description}`).join('\n')}`
    },
    inputSchema: {
      type: 'object',
      properties: {
        description: { type: 'string', minLength: 1, description: 'A short (3-5 word) label for the task.' },
        prompt: {
          type: 'string',
          minLength: 1,
          description: 'The whole task for the agent, self-contained.',
        },
        subagent_type: { type: 'string', minLength: 1, description: 'The agent type to use.' },
        run_in_background: {
          type: 'boolean',
          description: 'Return a job id at once and notify on completion instead of waiting.',
        },
        resume: { type: 'string', minLength: 1, description: 'The id of a finished agent to continue.' },
        model: {
          type: 'string',
          minLength: 1,
          description: 'Model for this run: a role (main, fast, review) or id.',
        },
        isolation: {
          type: 'string',
          enum: ['worktree'],
          description: 'Run in its own git worktree; apply its changes with ApplyAgentChanges.',
        },
      },
      required: ['description', 'prompt', 'subagent_type'],
      additionalProperties: false,
    },
    // A subagent may change files; each of its own tool calls passes the gate.
    isReadOnly: () => false,
    // Subagents run side by side: several Agent calls in one answer start together.
    isConcurrencySafe: () => true,
    action: (input, ctx) => actionFor(NAME, input, ctx),
    title: (input) => {
      const type = typeof input.subagent_type === 'string' ? input.subagent_type : 'agent'
      return typeof input.description === 'string'
        ? `Agent (${type}): ${input.description}`
        : `Agent (${type})`
    },
    preview: async (input) =>
      typeof input.prompt === 'string' ? { type: 'text', text: input.prompt } : undefined,
    async call(input, ctx, signal) {
      const agents = ctx.ports.agents
      if (agents === undefined) return portMissing(NAME, 'subagent service')
      return guardPort(NAME, async () => {
        // A resumed agent keeps its own type; only a new one must name a known type.
        if (input.resume === undefined) {
          const types = agents.catalog().map((type) => type.name)
          if (!types.includes(input.subagent_type)) {
            return errorResult(
              'unknown_agent_type',
              `No agent type '${input.subagent_type}'; available: ${types.join(', ') || '(none)'}.`,
            )
          }
        }
        const request: AgentSpawnRequest = {
          agentType: input.subagent_type,
          description: input.description,
          prompt: input.prompt,
          background: input.run_in_background === true,
          ...(input.resume === undefined ? {} : { resume: input.resume }),
          ...(input.model === undefined ? {} : { model: input.model }),
          ...(input.isolation === undefined ? {} : { isolation: input.isolation }),
        }
        const outcome = await agents.spawn(request, signal)
        switch (outcome.type) {
          case 'background':
            return textResult(
              `Started agent ${outcome.agentId} in the background as job ${outcome.jobId}. You will be told when it finishes; read its latest message with JobOutput (job_id "${outcome.jobId}") if you need it sooner. Carry on with other work meanwhile.`,
              { details: { agentId: outcome.agentId, jobId: outcome.jobId, background: true } },
            )
          case 'done':
            return finished(outcome.result, ctx)
          default: {
            const never: never = outcome
            return never
          }
        }
      })
    },
  }
}

/** The Agent tool with a description that doesn't list agent types. */
export const agentTool: Tool<AgentInput> = createAgentTool()

/**
 * A finished agent's final message (under the `conclusion` output budget), followed by its id,
 * usage, changed files and worktree state.
 */
async function finished(result: AgentRunResult, ctx: ToolCtx): Promise<ToolResult> {
  const { info } = result
  const footer = [`agent_id: ${result.agentId} (pass it as \`resume\` to continue this agent)`]
  const tokens = info.usage.inputTokens + info.usage.outputTokens
  footer.push(
    `usage: ${tokens} tokens (${info.usage.inputTokens} in, ${info.usage.outputTokens} out${info.cost.totalUsd > 0 ? `, $${info.cost.totalUsd.toFixed(4)}` : ''})`,
  )
  if (result.changedFiles.length > 0)
    footer.push(`changed files:\n${result.changedFiles.map((f) => `- ${f}`).join('\n')}`)
  const worktree = info.worktree
  // Changes in a worktree are not in the project until applied: don't report them as changed here.
  let changedInProject = result.changedFiles
  const inWorktree = worktree.type !== 'none' && worktree.type !== 'applied'
  switch (worktree.type) {
    case 'pending':
      changedInProject = []
      footer.push(
        `Its changes are in the worktree ${worktree.path} (branch ${worktree.branch}), not yet in the project: ${worktree.summary}\nReview them, then call ApplyAgentChanges with agent_id "${result.agentId}" to apply them.`,
      )
      break
    case 'empty':
      changedInProject = []
      footer.push('It made no changes; its worktree was removed.')
      break
    case 'active':
    case 'conflicted':
    case 'discarded':
      changedInProject = []
      footer.push(`worktree: ${worktree.type}`)
      break
    case 'none':
    case 'applied':
      break
    default: {
      const never: never = worktree
      return never
    }
  }
  const message = result.finalMessage.trim()
    ? await budgetOutput(ctx, result.finalMessage.trim(), 'conclusion', `agent-${result.agentId}`)
    : '(The agent ended without a final message.)'
  const text = `${message}\n\n---\n${footer.join('\n')}`
  const details = { agentId: result.agentId, info }
  if (info.status === 'failed' || info.status === 'cancelled') {
    return errorResult(
      `agent_${info.status}`,
      `The agent ${info.status === 'failed' ? 'failed' : 'was cancelled'}.\n${text}`,
    )
  }
  return textResult(text, {
    details,
    ...(changedInProject.length > 0 ? { changedFiles: changedInProject } : {}),
    // A subagent that only read (or worked in a worktree not yet applied) leaves the turn unchanged.
    ...(result.mutated !== undefined ? { mutated: result.mutated && !inWorktree } : {}),
  })
}
