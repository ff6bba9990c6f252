import { toolDescription } from '@z-engine/prompts'
import { guardPort, portMissing } from '../port-results.js'
import { errorResult, textResult } from '../results.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'

/** ApplyAgentChanges' input. */
export interface ApplyAgentChangesInput {
  agent_id: string
}

const NAME = 'ApplyAgentChanges'

/** ApplyAgentChanges: merges a worktree agent's changes into the project through the AgentPort. */
export const applyAgentChangesTool: Tool<ApplyAgentChangesInput> = {
  name: NAME,
  description: () => toolDescription(NAME),
  inputSchema: {
    type: 'object',
    properties: {
      agent_id: {
        type: 'string',
        minLength: 1,
        description: 'The id of the worktree agent, from its Agent result.',
      },
    },
    required: ['agent_id'],
    additionalProperties: false,
  },
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  action: (input, ctx) => actionFor(NAME, input, ctx),
  title: (input) => `Apply the changes of agent ${typeof input.agent_id === 'string' ? input.agent_id : '?'}`,
  preview: async (input) =>
    typeof input.agent_id === 'string'
      ? { type: 'text', text: `Merge the worktree changes of agent ${input.agent_id} into the project.` }
      : undefined,
  async call(input, ctx) {
    const agents = ctx.ports.agents
    if (agents === undefined) return portMissing(NAME, 'subagent service')
    return guardPort(NAME, async () => {
      const applied = await agents.applyChanges(input.agent_id)
      if (!applied.ok) {
        const conflicts =
          applied.conflicts.length > 0
            ? ` Conflicting files:\n${applied.conflicts.map((f) => `- ${f}`).join('\n')}\n`
            : ' '
        return errorResult(
          'apply_failed',
          `Could not apply the changes of agent ${input.agent_id}: ${applied.message.replace(/\.$/, '')}.${conflicts}Nothing in the project was changed and the worktree is kept; resolve the conflicts there (or tell the user) and call ApplyAgentChanges again.`,
        )
      }
      const files = applied.changedFiles
      return textResult(
        files.length === 0
          ? `Agent ${input.agent_id}'s changes were applied; no file changed.`
          : `Applied agent ${input.agent_id}'s changes to ${files.length} file${files.length === 1 ? '' : 's'}:\n${files.map((f) => `- ${f}`).join('\n')}`,
        { changedFiles: files, details: { agentId: input.agent_id } },
      )
    })
  },
}
