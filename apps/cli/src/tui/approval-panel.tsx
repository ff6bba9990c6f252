import {
  type ApprovalDecision,
  type ApprovalRequest,
  type Preview,
  suggestedRulesText,
} from '@z-engine/protocol'
import { Box, type Key, Text, useStdout } from 'ink'
import type { ReactNode } from 'react'
import { keyed } from './keyed.js'
import { editLine } from './line-edit.js'

/** One answer an approval card offers, with its one-letter shortcut. */
export interface ApprovalOption {
  hotkey: 'y' | 'a' | 'p' | 'n'
  label: string
  /** `deny` asks for feedback before it is sent. */
  decision: ApprovalDecision
}

/**
 * The answers a card offers. "Always" needs the policy's suggested rule: a target outside the
 * project gets a `session`-scoped suggestion (never persisted), a protected path gets none.
 */
export function approvalOptions(request: ApprovalRequest): ApprovalOption[] {
  const options: ApprovalOption[] = [{ hotkey: 'y', label: 'Yes, once', decision: { type: 'allowOnce' } }]
  const suggestion = request.suggestion
  if (suggestion) {
    options.push({
      hotkey: 'a',
      label: `Yes, always in this chat (${suggestedRulesText(suggestion)})`,
      decision: { type: 'allowSession', rule: suggestion.rule },
    })
    if (suggestion.scope === 'project')
      options.push({
        hotkey: 'p',
        label: `Yes, always in this project (${suggestedRulesText(suggestion)})`,
        decision: { type: 'allowProject', rule: suggestion.rule },
      })
  }
  options.push({
    hotkey: 'n',
    label: 'No, and tell the agent what to do instead',
    decision: { type: 'deny' },
  })
  return options
}

/** Which card has focus, which option is highlighted, and the feedback being typed after "No". */
export interface ApprovalUi {
  focus: number
  option: number
  feedback?: string
}

/** The panel's state before any key. */
export const INITIAL_APPROVAL_UI: ApprovalUi = { focus: 0, option: 0 }

/** What a key on the approval panel leads to. */
export type ApprovalKeyResult =
  | { type: 'ui'; ui: ApprovalUi }
  | { type: 'resolve'; ui: ApprovalUi; approvalId: string; decision: ApprovalDecision }
  | { type: 'unhandled' }

/**
 * Handles a key while approval cards wait. Cards are answered one at a time, in any order: ←/→ (or
 * Tab) move between them; y/a/p/n or ↑/↓ and Enter pick an answer; "n" asks for feedback first.
 */
export function approvalKey(
  requests: readonly ApprovalRequest[],
  ui: ApprovalUi,
  input: string,
  key: Key,
): ApprovalKeyResult {
  const focus = Math.min(ui.focus, requests.length - 1)
  const request = requests[focus]
  if (!request) return { type: 'unhandled' }
  const options = approvalOptions(request)
  const resolve = (decision: ApprovalDecision): ApprovalKeyResult => ({
    type: 'resolve',
    // The next card takes the answered one's place, so focus stays put (clamped on render).
    ui: { focus, option: 0 },
    approvalId: request.id,
    decision,
  })
  if (ui.feedback !== undefined) {
    if (key.escape) return { type: 'ui', ui: { focus, option: ui.option } }
    const edit = editLine(ui.feedback, input, key)
    if (!edit.submitted) return { type: 'ui', ui: { ...ui, focus, feedback: edit.value } }
    const feedback = edit.value.trim()
    return resolve(feedback === '' ? { type: 'deny' } : { type: 'deny', feedback })
  }
  const choose = (option: ApprovalOption | undefined): ApprovalKeyResult => {
    if (!option) return { type: 'ui', ui: { ...ui, focus } }
    if (option.decision.type === 'deny')
      return { type: 'ui', ui: { focus, option: options.indexOf(option), feedback: '' } }
    return resolve(option.decision)
  }
  if (key.leftArrow)
    return { type: 'ui', ui: { focus: (focus + requests.length - 1) % requests.length, option: 0 } }
  if (key.rightArrow || (key.tab && !key.shift))
    return { type: 'ui', ui: { focus: (focus + 1) % requests.length, option: 0 } }
  if (key.upArrow) return { type: 'ui', ui: { focus, option: Math.max(0, ui.option - 1) } }
  if (key.downArrow) return { type: 'ui', ui: { focus, option: Math.min(options.length - 1, ui.option + 1) } }
  if (key.return) return choose(options[ui.option])
  const byHotkey = options.find((option) => option.hotkey === input.toLowerCase())
  if (byHotkey) return choose(byHotkey)
  const byNumber = Number.parseInt(input, 10)
  if (byNumber >= 1 && byNumber <= options.length) return choose(options[byNumber - 1])
  return { type: 'unhandled' }
}

function diffColor(line: string): string {
  if (line.startsWith('+')) return 'green'
  if (line.startsWith('-')) return 'red'
  return 'white'
}

function PreviewView({ preview, maxLines }: { preview: Preview; maxLines: number }): ReactNode {
  switch (preview.type) {
    case 'command':
      return (
        <Box flexDirection="column">
          <Text color="cyan">{`$ ${preview.command}`}</Text>
          <Text dimColor>{`  in ${preview.cwd}`}</Text>
        </Box>
      )
    case 'diff': {
      const all = preview.unifiedDiff.split('\n')
      const lines = all.slice(0, maxLines)
      return (
        <Box flexDirection="column">
          <Text bold>{preview.path}</Text>
          {keyed(lines, 'diff').map(({ key, item: line }) => (
            <Text key={key} color={diffColor(line)} dimColor={line.startsWith('@@')}>
              {line === '' ? ' ' : line}
            </Text>
          ))}
          {all.length > lines.length ? (
            <Text dimColor>{`… ${all.length - lines.length} more lines`}</Text>
          ) : null}
        </Box>
      )
    }
    case 'text':
      return <Text>{preview.text}</Text>
    default: {
      const unreachable: never = preview
      return unreachable
    }
  }
}

/** The focused approval card with its preview and answers, and how many more wait. */
export function ApprovalPanel({
  requests,
  ui,
}: {
  requests: readonly ApprovalRequest[]
  ui: ApprovalUi
}): ReactNode {
  const { stdout } = useStdout()
  // A card taller than the terminal makes every redraw clear the screen: the diff gets what is left.
  const maxLines = Math.max(6, (stdout.rows ?? 40) - 16)
  const focus = Math.min(ui.focus, requests.length - 1)
  const request = requests[focus]
  if (!request) return null
  const options = approvalOptions(request)
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text>
        <Text bold color="yellow">
          {request.title}
        </Text>
        {request.agentId !== undefined ? <Text dimColor> [{request.agentId}]</Text> : null}
        {requests.length > 1 ? (
          <Text dimColor>{`  (${focus + 1} of ${requests.length}, ←/→ to switch)`}</Text>
        ) : null}
      </Text>
      <Text dimColor>{request.reason}</Text>
      {request.preview ? <PreviewView preview={request.preview} maxLines={maxLines} /> : null}
      {ui.feedback !== undefined ? (
        <Box flexDirection="column">
          <Text>Tell the agent what to do instead (Enter to send, empty to just deny, Esc to go back):</Text>
          <Text>
            <Text color="blue">{'› '}</Text>
            {ui.feedback}
            <Text inverse> </Text>
          </Text>
        </Box>
      ) : (
        options.map((option, index) => (
          <Text key={option.hotkey} {...(index === ui.option ? { color: 'cyan' } : {})}>
            {index === ui.option ? '❯ ' : '  '}
            {`[${option.hotkey}] ${option.label}`}
          </Text>
        ))
      )}
    </Box>
  )
}
