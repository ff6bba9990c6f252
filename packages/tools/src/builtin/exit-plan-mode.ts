import { toolDescription } from '@z-engine/prompts'
import { guardPort, portMissing } from '../port-results.js'
import { errorResult, textResult } from '../results.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'

/** ExitPlanMode's input: the plan, in markdown. */
export interface ExitPlanModeInput {
  plan: string
}

const NAME = 'ExitPlanMode'

/** ExitPlanMode: proposes the plan to the user; approval leaves plan mode (main agent only). */
export const exitPlanModeTool: Tool<ExitPlanModeInput> = {
  name: NAME,
  description: () => toolDescription(NAME),
  inputSchema: {
    type: 'object',
    properties: {
      plan: { type: 'string', minLength: 1, description: 'The plan to carry out, in markdown.' },
    },
    required: ['plan'],
    additionalProperties: false,
  },
  isReadOnly: () => true,
  // Approving a plan changes the mode the rest of the batch runs in.
  isConcurrencySafe: () => false,
  action: (input, ctx) => actionFor(NAME, input, ctx),
  title: () => 'Propose the plan',
  preview: async (input) => (typeof input.plan === 'string' ? { type: 'text', text: input.plan } : undefined),
  async call(input, ctx, signal) {
    const interaction = ctx.ports.interaction
    if (interaction === undefined) return portMissing(NAME, 'user interaction')
    if (input.plan.trim() === '')
      return errorResult('invalid_input', 'The plan is empty; write the plan in `plan`.')
    return guardPort(NAME, async () => {
      const verdict = await interaction.proposePlan(input.plan, signal)
      if (verdict.approved) {
        // The approved plan goes back with the approval (as Claude Code's "## Approved Plan:"), so it
        // stays in the conversation as what was agreed, whatever the model's input held.
        return textResult(
          `The user approved your plan; the session is now in ${verdict.mode} mode. Start carrying out the plan, beginning with the first step; refer back to it while you work.\n\n## Approved Plan:\n${input.plan.trim()}`,
          { details: { approved: true, mode: verdict.mode, plan: input.plan } },
        )
      }
      const feedback = verdict.feedback?.trim()
      return errorResult(
        'plan_rejected',
        feedback
          ? `The user rejected the plan and you are still in plan mode. Their feedback: ${feedback}\nRevise the plan accordingly and call ExitPlanMode again.`
          : 'The user rejected the plan and you are still in plan mode. Ask what they would like changed, or revise the plan and call ExitPlanMode again.',
      )
    })
  },
}
