import type { PermissionMode } from '@z-engine/protocol'
import { Box, Text } from 'ink'
import { type ReactNode, useEffect, useState } from 'react'
import { keyed } from './keyed.js'
import { type ChatState, contextPercent, retryText } from './view-model.js'

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

/** A running turn's age as the status line shows it: `12s`, `3m 05s`, `1h 02m`. */
export function elapsedLabel(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000))
  if (seconds < 60) return `${seconds}s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`
}

/** The current time, ticking each second while `active` (only the status line redraws). */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!active) return
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [active])
  return now
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
      return <Text color="green">{` · ✓ verified (${(badge.checks ?? [badge.checkId]).join(', ')})`}</Text>
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

/** Mode, model, context use, cost and the last turn's badge; plus what is running and the Ctrl-C warning. */
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
  const now = useNow(state.busy)
  const elapsed = state.busySince === undefined ? '' : ` ${elapsedLabel(now - state.busySince)}`
  return (
    <Box flexDirection="column">
      {keyed(state.queued, 'queued').map(({ key, item: text }) => (
        <Text key={key} dimColor>
          {state.busy ? `⏎ queued: ${text}` : `⏎ queued, sent with your next message: ${text}`}
        </Text>
      ))}
      {state.retry !== undefined ? <Text color="yellow">{`⚠ ${retryText(state.retry)}`}</Text> : null}
      <Text wrap="truncate-end">
        {state.busy ? <Text color="yellow">{`● working${elapsed} (Esc to interrupt) · `}</Text> : null}
        {warning !== undefined ? <Text color="red">{`${warning} · `}</Text> : null}
        {/* The mode comes before the model so it stays visible at 80 columns while a turn runs. */}
        <Text color={mode.color}>{mode.label}</Text>
        <Text dimColor>
          {' (shift+tab) · '}
          {modelLabel(state.model)}
          {percent !== undefined ? ` · context ${percent}%` : ''}
          {` · $${state.costUsd.toFixed(4)}`}
        </Text>
        <BadgeLabel badge={state.badge} />
      </Text>
    </Box>
  )
}
