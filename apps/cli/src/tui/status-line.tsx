import type { PermissionMode } from '@z-engine/protocol'
import { Box, Text, useStdout } from 'ink'
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
function badgeLabel(badge: ChatState['badge']): { text: string; color: string } | undefined {
  switch (badge?.type) {
    case undefined:
    case 'notApplicable':
      return undefined
    case 'verified':
      return { text: ` · ✓ verified (${(badge.checks ?? [badge.checkId]).join(', ')})`, color: 'green' }
    case 'failed':
      return { text: ` · ✗ failed (${badge.checkId})`, color: 'red' }
    case 'unverified':
      return { text: ' · unverified', color: 'yellow' }
    default: {
      const unreachable: never = badge
      return unreachable
    }
  }
}

/** The status line's parts; `fitStatus` shortens them until the line fits. */
export interface StatusParts {
  /** The running turn's age (`12s`), when one runs. */
  elapsed?: string
  warning?: string
  mode: PermissionMode
  model: string
  percent?: number
  costUsd: number
  badge?: { text: string; color: string }
}

/** What the line shows after shortening: which hints and which form of the model. */
export interface StatusForm {
  escHint: string
  shiftTab: boolean
  model: string | undefined
}

const lengthOf = (parts: StatusParts, form: StatusForm): number =>
  (parts.elapsed !== undefined ? `● working ${parts.elapsed} ${form.escHint} · `.length : 0) +
  (parts.warning !== undefined ? parts.warning.length + 3 : 0) +
  MODE_LABEL[parts.mode].label.length +
  (form.shiftTab ? ' (shift+tab)'.length : 0) +
  (form.model !== undefined ? ` · ${form.model}`.length : 0) +
  (parts.percent !== undefined ? ` · context ${parts.percent}%`.length : 0) +
  ` · $${parts.costUsd.toFixed(4)}`.length +
  [...(parts.badge?.text ?? '')].length

/**
 * The fullest form of the line that fits `width` columns: a long model first loses its provider,
 * then the Esc hint shortens, the model goes, and last the Shift-Tab hint, so the mode, the cost
 * and the verification badge stay on screen (a line cut at its end lost the badge at 120 columns).
 */
export function fitStatus(parts: StatusParts, width: number): StatusForm {
  const short = parts.model.startsWith('scripted:') ? parts.model : (parts.model.split('/').at(-1) ?? '')
  const forms: StatusForm[] = [
    { escHint: '(Esc to interrupt)', shiftTab: true, model: parts.model },
    { escHint: '(Esc to interrupt)', shiftTab: true, model: short },
    { escHint: '(esc)', shiftTab: true, model: short },
    { escHint: '(esc)', shiftTab: true, model: undefined },
    { escHint: '(esc)', shiftTab: false, model: undefined },
  ]
  return forms.find((form) => lengthOf(parts, form) <= width) ?? (forms.at(-1) as StatusForm)
}

/** Mode, model, context use, cost and the last turn's badge; plus what is running and the Ctrl-C warning. */
export function StatusLine({
  state,
  warning,
  contextWindow,
  width,
}: {
  state: ChatState
  warning?: string
  /** The window to measure against when the engine's events carry none. */
  contextWindow?: number
  /** The columns to fit (default: the terminal's). */
  width?: number
}): ReactNode {
  const mode = MODE_LABEL[state.mode]
  const percent = contextPercent(state, contextWindow)
  const now = useNow(state.busy)
  const { stdout } = useStdout()
  const badge = badgeLabel(state.badge)
  const parts: StatusParts = {
    ...(state.busy
      ? { elapsed: state.busySince === undefined ? '' : elapsedLabel(now - state.busySince) }
      : {}),
    ...(warning !== undefined ? { warning } : {}),
    mode: state.mode,
    model: modelLabel(state.model),
    ...(percent !== undefined ? { percent } : {}),
    costUsd: state.costUsd,
    ...(badge !== undefined ? { badge } : {}),
  }
  const form = fitStatus(parts, width ?? stdout.columns ?? 80)
  const elapsed = parts.elapsed ? ` ${parts.elapsed}` : ''
  return (
    <Box flexDirection="column">
      {keyed(state.queued, 'queued').map(({ key, item: text }) => (
        <Text key={key} dimColor>
          {state.busy ? `⏎ queued: ${text}` : `⏎ queued, sent with your next message: ${text}`}
        </Text>
      ))}
      {state.retry !== undefined ? <Text color="yellow">{`⚠ ${retryText(state.retry)}`}</Text> : null}
      <Text wrap="truncate-end">
        {state.busy ? <Text color="yellow">{`● working${elapsed} ${form.escHint} · `}</Text> : null}
        {warning !== undefined ? <Text color="red">{`${warning} · `}</Text> : null}
        {/* The mode comes before the model so it stays visible at 80 columns while a turn runs. */}
        <Text color={mode.color}>{mode.label}</Text>
        <Text dimColor>
          {form.shiftTab ? ' (shift+tab)' : ''}
          {form.model !== undefined ? ` · ${form.model}` : ''}
          {percent !== undefined ? ` · context ${percent}%` : ''}
          {` · $${state.costUsd.toFixed(4)}`}
        </Text>
        {parts.badge !== undefined ? <Text color={parts.badge.color}>{parts.badge.text}</Text> : null}
      </Text>
    </Box>
  )
}
