import {
  type ApprovalDecision,
  type ApprovalRequest,
  type Preview,
  suggestedRulesText,
} from '@z-engine/protocol'
import { Box, type Key, Text, useStdout } from 'ink'
import type { ReactNode } from 'react'
import { diffBody, diffCounts, expandTabs, shownPath } from './diff-lines.js'
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

/** The colour of a diff line: additions green, removals red, hunk headers cyan. */
export function diffColor(line: string): string {
  if (line.startsWith('+')) return 'green'
  if (line.startsWith('-')) return 'red'
  if (line.startsWith('@@')) return 'cyan'
  return 'white'
}

/** The whole change of a card, for Ctrl-O to print above it (finished rows are never redrawn). */
export function previewText(
  preview: Preview,
  projectRoot: string | undefined,
): { title: string; text: string } {
  switch (preview.type) {
    case 'diff':
      return {
        title: `change to ${shownPath(preview.path, projectRoot)}`,
        text: diffBody(preview.unifiedDiff).join('\n'),
      }
    case 'command':
      return { title: `command in ${shownPath(preview.cwd, projectRoot)}`, text: preview.command }
    case 'text':
      return { title: 'details', text: preview.text }
    default: {
      const unreachable: never = preview
      return unreachable
    }
  }
}

function DiffLines({ lines, prefix }: { lines: readonly string[]; prefix: string }): ReactNode {
  return keyed(lines, prefix).map(({ key, item: line }) => (
    <Text key={key} color={diffColor(line)} dimColor={line.startsWith('@@')} wrap="truncate-end">
      {line === '' ? ' ' : expandTabs(line)}
    </Text>
  ))
}

function PreviewView({
  preview,
  maxLines,
  projectRoot,
}: {
  preview: Preview
  maxLines: number
  projectRoot: string | undefined
}): ReactNode {
  switch (preview.type) {
    case 'command': {
      const all = preview.command.split('\n')
      const lines = all.slice(0, maxLines)
      const where = shownPath(preview.cwd, projectRoot)
      return (
        <Box flexDirection="column">
          {keyed(lines, 'cmd').map(({ key, item: line }, index) => (
            <Text key={key} color="cyan" wrap="truncate-end">
              {`${index === 0 ? '$' : ' '} ${expandTabs(line)}`}
            </Text>
          ))}
          {all.length > lines.length ? (
            <Text dimColor>{`… ${all.length - lines.length} more lines (ctrl+o to see all)`}</Text>
          ) : null}
          {where !== '.' ? <Text dimColor wrap="truncate-middle">{`  in ${where}`}</Text> : null}
        </Box>
      )
    }
    case 'diff': {
      const all = diffBody(preview.unifiedDiff)
      const { added, removed } = diffCounts(all)
      // The change goes first: the hunks get the rows. A cut keeps the start and the end (a rewrite's
      // added lines come last) and counts what is left out between them.
      const cut = all.length > maxLines
      const headCount = cut ? Math.ceil((maxLines - 1) / 2) : all.length
      const head = all.slice(0, headCount)
      const tail = cut ? all.slice(all.length - (maxLines - 1 - headCount)) : []
      const hidden = all.length - head.length - tail.length
      return (
        <Box flexDirection="column">
          <Text wrap="truncate-middle">
            <Text bold>{shownPath(preview.path, projectRoot)}</Text>
            <Text color="green">{` +${added}`}</Text>
            <Text color="red">{` -${removed}`}</Text>
          </Text>
          <DiffLines lines={head} prefix="head" />
          {hidden > 0 ? (
            <Text dimColor>{`… ${hidden} more lines (ctrl+o to see the whole change)`}</Text>
          ) : null}
          <DiffLines lines={tail} prefix="tail" />
        </Box>
      )
    }
    case 'text': {
      // An MCP tool's arguments may be long: the card shows what fits and says how much is left.
      const all = preview.text.split('\n')
      const lines = all.slice(0, maxLines)
      return (
        <Box flexDirection="column">
          {keyed(lines, 'text').map(({ key, item: line }) => (
            <Text key={key} wrap="truncate-end">
              {line === '' ? ' ' : expandTabs(line)}
            </Text>
          ))}
          {all.length > lines.length ? (
            <Text dimColor>{`… ${all.length - lines.length} more lines (ctrl+o to see all)`}</Text>
          ) : null}
        </Box>
      )
    }
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
  projectRoot,
}: {
  requests: readonly ApprovalRequest[]
  ui: ApprovalUi
  /** Paths inside it are shown relative to it. */
  projectRoot?: string | undefined
}): ReactNode {
  const { stdout } = useStdout()
  // A card taller than the terminal makes every redraw clear the screen: the change gets the rows
  // left after the title, the file line, the reason, the answers, the borders and the status line.
  const request0 = requests[Math.min(ui.focus, requests.length - 1)]
  const answers = request0 ? approvalOptions(request0).length : 4
  const maxLines = Math.max(3, (stdout.rows ?? 40) - 9 - answers)
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
      {request.preview ? (
        <PreviewView preview={request.preview} maxLines={maxLines} projectRoot={projectRoot} />
      ) : null}
      <Text dimColor wrap="truncate-end">
        {request.reason}
      </Text>
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
          <Text key={option.hotkey} wrap="truncate-end" {...(index === ui.option ? { color: 'cyan' } : {})}>
            {index === ui.option ? '❯ ' : '  '}
            {`[${option.hotkey}] ${option.label}`}
          </Text>
        ))
      )}
    </Box>
  )
}
