import type { PlanDecision, PlanProposal } from '@z-engine/protocol'
import { Box, type Key, Text } from 'ink'
import type { ReactNode } from 'react'
import { editLine } from './line-edit.js'
import { Markdown } from './markdown.js'

/** The plan review's state: the highlighted choice, and feedback while "keep planning" is typed. */
export interface PlanUi {
  option: number
  feedback?: string
}

/** The panel's state before any key. */
export const INITIAL_PLAN_UI: PlanUi = { option: 0 }

const CHOICES = [
  { hotkey: 'a', label: 'Yes, and auto-accept edits', decision: { type: 'approve', mode: 'acceptEdits' } },
  { hotkey: 'y', label: 'Yes, and ask before each edit', decision: { type: 'approve', mode: 'default' } },
  { hotkey: 'n', label: 'No, keep planning (tell the agent what to change)', decision: { type: 'reject' } },
] as const satisfies ReadonlyArray<{ hotkey: string; label: string; decision: PlanDecision }>

/** What a key on the plan review leads to. */
export type PlanKeyResult =
  | { type: 'ui'; ui: PlanUi }
  | { type: 'resolve'; planId: string; decision: PlanDecision }
  | { type: 'unhandled' }

/** Handles a key while a plan waits for review: a/y approve, n (or Enter on it) asks for feedback. */
export function planKey(plan: PlanProposal, ui: PlanUi, input: string, key: Key): PlanKeyResult {
  if (ui.feedback !== undefined) {
    if (key.escape) return { type: 'ui', ui: { option: ui.option } }
    const edit = editLine(ui.feedback, input, key)
    if (!edit.submitted) return { type: 'ui', ui: { ...ui, feedback: edit.value } }
    const feedback = edit.value.trim()
    return {
      type: 'resolve',
      planId: plan.id,
      decision: feedback === '' ? { type: 'reject' } : { type: 'reject', feedback },
    }
  }
  const choose = (index: number): PlanKeyResult => {
    const choice = CHOICES[index]
    if (!choice) return { type: 'unhandled' }
    if (choice.decision.type === 'reject') return { type: 'ui', ui: { option: index, feedback: '' } }
    return { type: 'resolve', planId: plan.id, decision: choice.decision }
  }
  if (key.upArrow) return { type: 'ui', ui: { option: Math.max(0, ui.option - 1) } }
  if (key.downArrow) return { type: 'ui', ui: { option: Math.min(CHOICES.length - 1, ui.option + 1) } }
  if (key.return) return choose(ui.option)
  const index = CHOICES.findIndex((choice) => choice.hotkey === input.toLowerCase())
  return index >= 0 ? choose(index) : { type: 'unhandled' }
}

/** The proposed plan, rendered as markdown, with the review choices. */
export function PlanPanel({ plan, ui }: { plan: PlanProposal; ui: PlanUi }): ReactNode {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="green" paddingX={1}>
      <Text bold color="green">
        Ready to code? Here is the plan:
      </Text>
      <Markdown source={plan.markdown} inset={4} />
      {ui.feedback !== undefined ? (
        <Text>
          <Text dimColor>What should change? </Text>
          {ui.feedback}
          <Text inverse> </Text>
        </Text>
      ) : (
        CHOICES.map((choice, index) => (
          <Text key={choice.hotkey} {...(index === ui.option ? { color: 'cyan' } : {})}>
            {index === ui.option ? '❯ ' : '  '}
            {`[${choice.hotkey}] ${choice.label}`}
          </Text>
        ))
      )}
    </Box>
  )
}
