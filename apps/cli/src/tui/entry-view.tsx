import type { AgentInfo, PermissionMode, TurnOutcome } from '@z-engine/protocol'
import { Box, Text } from 'ink'
import type { ReactNode } from 'react'
import { diffColor } from './approval-panel.js'
import { attachedFileLine } from './attached-files.js'
import { expandTabs } from './diff-lines.js'
import { keyed } from './keyed.js'
import { Markdown } from './markdown.js'
import { type ToolCard, type ToolCardStatus, type TranscriptEntry, visibleProgress } from './view-model.js'

const STATUS_MARK: Record<ToolCardStatus, { mark: string; color: string; label: string }> = {
  running: { mark: '⋯', color: 'yellow', label: 'running' },
  ok: { mark: '✓', color: 'green', label: 'ok' },
  error: { mark: '✗', color: 'red', label: 'error' },
  denied: { mark: '⊘', color: 'red', label: 'denied' },
  cancelled: { mark: '■', color: 'gray', label: 'cancelled' },
  interrupted: { mark: '■', color: 'gray', label: 'interrupted' },
}

/** How an approved plan's mode reads under its heading. */
const MODE_WORDS: Record<PermissionMode, string> = {
  default: 'edits asked for',
  acceptEdits: 'edits auto-accepted',
  plan: 'still planning',
  bypass: 'bypassing permissions',
}

/** The card's title without a leading tool name (the card prints the name itself). */
function cardTitle(card: ToolCard): string {
  return card.title.startsWith(`${card.toolName} `) ? card.title.slice(card.toolName.length + 1) : card.title
}

/** A tool call: title, live output tail while it runs, then its status and one-line summary. */
export function ToolCardView({ card }: { card: ToolCard }): ReactNode {
  const status = STATUS_MARK[card.status]
  const seconds = card.durationMs !== undefined ? ` ${(card.durationMs / 1000).toFixed(1)}s` : ''
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={status.color}>{status.mark} </Text>
        <Text bold>{card.toolName}</Text>
        {card.title !== card.toolName ? <Text>{` ${cardTitle(card)}`}</Text> : null}
        {card.agentId !== undefined ? <Text dimColor> [{card.agentId}]</Text> : null}
        <Text dimColor>
          {' '}
          {status.label}
          {seconds}
        </Text>
      </Text>
      {card.summary !== undefined && card.summary !== '' ? (
        <Text dimColor>{`  ⎿ ${card.summary}`}</Text>
      ) : null}
      {card.reply !== undefined ? <Text dimColor>{`  ⎿ ${card.reply}`}</Text> : null}
      {card.change !== undefined && card.status === 'ok' ? (
        <Text dimColor>
          {'  ⎿ '}
          <Text color="green">{`+${card.change.added}`}</Text>{' '}
          <Text color="red">{`-${card.change.removed}`}</Text>
          {' (ctrl+o to show the change)'}
        </Text>
      ) : null}
      {card.status === 'running'
        ? keyed(visibleProgress(card), 'out').map(({ key, item: line }) => (
            <Text key={key} dimColor wrap="truncate-end">
              {`  │ ${expandTabs(line)}`}
            </Text>
          ))
        : null}
      {card.output !== undefined && card.output.hidden > 0 ? (
        <Text
          dimColor
        >{`  │ … ${card.output.hidden} line${card.output.hidden === 1 ? '' : 's'} above (ctrl+o to expand)`}</Text>
      ) : null}
      {card.output !== undefined
        ? keyed(card.output.lines, 'res').map(({ key, item: line }) => (
            <Text key={key} dimColor wrap="truncate-end">
              {`  │ ${expandTabs(line)}`}
            </Text>
          ))
        : null}
    </Box>
  )
}

const AGENT_MARK: Record<AgentInfo['status'], { mark: string; color: string }> = {
  pending: { mark: '◌', color: 'gray' },
  running: { mark: '⋯', color: 'yellow' },
  waiting: { mark: '…', color: 'yellow' },
  done: { mark: '✓', color: 'green' },
  failed: { mark: '✗', color: 'red' },
  cancelled: { mark: '■', color: 'gray' },
}

/** One subagent: its type, what it was asked, and its state. */
export function AgentLine({ agent }: { agent: AgentInfo }): ReactNode {
  const mark = AGENT_MARK[agent.status]
  return (
    <Text wrap="truncate-end">
      <Text color={mark.color}>{`${mark.mark} `}</Text>
      <Text bold>{agent.agentType}</Text>
      <Text>{` ${agent.description}`}</Text>
      <Text dimColor>{` ${agent.status}${agent.background ? ' (background)' : ''}`}</Text>
    </Text>
  )
}

/** What a non-`done` turn outcome tells the user. */
export function outcomeText(outcome: TurnOutcome): string {
  switch (outcome.type) {
    case 'done':
      return 'Done'
    case 'interrupted':
      return 'Interrupted — what should I do instead?'
    case 'cancelled':
      return 'Cancelled'
    case 'budgetExhausted':
      return `Stopped: ${outcome.budget === 'maxTurns' ? 'the turn limit' : 'the session cost cap'} was reached`
    case 'failed':
      return `Failed: ${outcome.error.message}`
    case 'incomplete':
      return `Incomplete: ${outcome.message}`
    default: {
      const unreachable: never = outcome
      return unreachable
    }
  }
}

/** One transcript row. */
export function EntryView({ entry }: { entry: TranscriptEntry }): ReactNode {
  switch (entry.kind) {
    case 'user':
      return (
        <Box marginTop={1} flexDirection="column">
          <Box>
            <Text color="blue" bold>
              {'› '}
            </Text>
            <Text>{entry.text}</Text>
          </Box>
          {(entry.attached ?? []).map((file) => (
            <Text key={file.path} dimColor>{`  ⎿ ${attachedFileLine(file)}`}</Text>
          ))}
        </Box>
      )
    case 'assistant':
      return (
        <Box marginTop={1}>
          <Markdown source={entry.text} />
        </Box>
      )
    case 'thinking': {
      // Collapsed: one line with the reasoning's start, so it never pushes the answer off screen.
      const firstLine = entry.text.trim().split('\n')[0] ?? ''
      return (
        <Text dimColor italic wrap="truncate-end">
          {`✻ Thinking: ${firstLine}`}
        </Text>
      )
    }
    case 'tool':
      return <ToolCardView card={entry.card} />
    case 'notice':
      return (
        <Text color={entry.level === 'error' ? 'red' : entry.level === 'warning' ? 'yellow' : 'gray'}>
          {entry.level === 'info' ? 'ℹ ' : '⚠ '}
          {entry.text}
        </Text>
      )
    case 'commandOutput':
      return (
        <Box flexDirection="column" borderStyle="round" borderColor="gray" paddingX={1}>
          <Text dimColor>/{entry.name}</Text>
          <Markdown source={entry.markdown} inset={6} />
        </Box>
      )
    case 'plan':
      return (
        <Box flexDirection="column" borderStyle="round" borderColor="magenta" paddingX={1}>
          <Text color="magenta">{`Approved plan${entry.mode !== undefined ? ` (${MODE_WORDS[entry.mode]})` : ''}`}</Text>
          <Markdown source={entry.markdown} inset={6} />
        </Box>
      )
    case 'turnEnded':
      return (
        <Text color={entry.outcome.type === 'failed' ? 'red' : 'yellow'}>{outcomeText(entry.outcome)}</Text>
      )
    case 'divider':
      return <Text dimColor>{`── ${entry.text} ──`}</Text>
    case 'agent':
      return <AgentLine agent={entry.agent} />
    case 'banner':
      return (
        <Box flexDirection="column" borderStyle="round" borderColor="blue" paddingX={1}>
          <Text>
            <Text bold color="blue">
              z-engine
            </Text>
            <Text dimColor>{` ${entry.version}`}</Text>
          </Text>
          <Text dimColor>{entry.projectRoot}</Text>
          <Text dimColor>{`session ${entry.sessionId} · /help for keys and commands`}</Text>
        </Box>
      )
    case 'toolOutput':
      return <ToolOutputView title={entry.title} text={entry.text} diff={entry.diff === true} />
    default: {
      const unreachable: never = entry
      return unreachable
    }
  }
}

/** Lines an expanded output prints at most (the rest is counted, not drawn). */
const EXPANDED_LINES = 400

/** A call's whole output (Ctrl-O), every line, cut only past {@link EXPANDED_LINES} with a count. */
function ToolOutputView({ title, text, diff }: { title: string; text: string; diff: boolean }): ReactNode {
  const lines = text.split('\n')
  const shown = lines.slice(0, EXPANDED_LINES)
  return (
    <Box flexDirection="column" borderStyle="single" borderColor="gray" paddingX={1}>
      <Text dimColor>{`output of ${title}`}</Text>
      {keyed(shown, 'full').map(({ key, item: line }) => (
        <Text key={key} {...(diff ? { color: diffColor(line) } : {})}>
          {line === '' ? ' ' : line}
        </Text>
      ))}
      {lines.length > shown.length ? (
        <Text dimColor>{`… ${lines.length - shown.length} more lines not shown`}</Text>
      ) : null}
    </Box>
  )
}
