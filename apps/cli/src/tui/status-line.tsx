import type { PermissionMode } from '@z-engine/protocol'
import { Box, Text } from 'ink'
import type { ReactNode } from 'react'
import { keyed } from './keyed.js'
import { type ChatState, contextPercent } from './view-model.js'

const MODE_LABEL: Record<PermissionMode, { label: string; color: string }> = {
  default: { label: 'ask before edits', color: 'gray' },
  acceptEdits: { label: 'auto-accept edits', color: 'green' },
  plan: { label: 'plan mode', color: 'cyan' },
  bypass: { label: 'bypass permissions', color: 'red' },
}

/** The modes Shift-Tab cycles through; bypass only when the chat was started in it. */
export function nextMode(mode: PermissionMode, allowBypass: boolean): PermissionMode {
  const order: PermissionMode[] = allowBypass
    ? ['default', 'acceptEdits', 'plan', 'bypass']
    : ['default', 'acceptEdits', 'plan']
  const index = order.indexOf(mode)
  return order[(index + 1) % order.length] ?? 'default'
}

/** A model reference as the status line shows it: a script's file name rather than its whole path. */
export function modelLabel(model: string): string {
  return model.startsWith('scripted:') ? `scripted:${model.split('/').at(-1) ?? ''}` : model
}

/** The last turn's verification badge as the status line shows it; nothing for read-only turns. */
function BadgeLabel({ badge }: { badge: ChatState['badge'] }): ReactNode {
  switch (badge?.type) {
    case undefined:
    case 'notApplicable':
      return null
    case 'verified':
      return <Text color="green">{` · ✓ verified (${badge.checkId})`}</Text>
    case 'failed':
      return <Text color="red">{` · ✗ failed (${badge.checkId})`}</Text>
    case 'unverified':
      return <Text color="yellow">{' · unverified'}</Text>
    default: {
      const unreachable: never = badge
      return unreachable
    }
  }
}

/** Model, mode, context use, cost and the last turn's badge; plus what is running and the Ctrl-C warning. */
export function StatusLine({
  state,
  warning,
  contextWindow,
}: {
  state: ChatState
  warning?: string
  /** The window to measure against when the engine's events carry none. */
  contextWindow?: number
}): ReactNode {
  const mode = MODE_LABEL[state.mode]
  const percent = contextPercent(state, contextWindow)
  return (
    <Box flexDirection="column">
      {keyed(state.queued, 'queued').map(({ key, item: text }) => (
        <Text key={key} dimColor>
          {state.busy ? `⏎ queued: ${text}` : `⏎ queued, sent with your next message: ${text}`}
        </Text>
      ))}
      <Text wrap="truncate-end">
        {state.busy ? <Text color="yellow">● working (Esc to interrupt) · </Text> : null}
        {warning !== undefined ? <Text color="red">{`${warning} · `}</Text> : null}
        <Text dimColor>{modelLabel(state.model)} · </Text>
        <Text color={mode.color}>{mode.label}</Text>
        <Text dimColor>
          {' (shift+tab)'}
          {percent !== undefined ? ` · context ${percent}%` : ''}
          {` · $${state.costUsd.toFixed(4)}`}
        </Text>
        <BadgeLabel badge={state.badge} />
      </Text>
    </Box>
  )
}
