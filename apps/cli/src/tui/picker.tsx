import { Box, type Key, Text } from 'ink'
import type { ReactNode } from 'react'

/** One choice in a picker: what it says, a dim detail after it, and whether it can be chosen. */
export interface PickerRow {
  key: string
  label: string
  detail?: string
  /** Shown dim with the reason; Enter on it does nothing. */
  disabled?: string
}

/** What a key in a picker does. */
export type PickerKeyResult =
  | { type: 'move'; index: number }
  | { type: 'choose'; index: number }
  | { type: 'cancel' }
  | { type: 'none' }

/** ↑/↓ (and Ctrl-P/N, k/j) move, Home/End jump, Enter chooses an enabled row, Esc cancels. */
export function pickerKey(
  rows: readonly PickerRow[],
  index: number,
  input: string,
  key: Key,
): PickerKeyResult {
  if (key.escape) return { type: 'cancel' }
  if (rows.length === 0) return key.return ? { type: 'cancel' } : { type: 'none' }
  // Moves skip rows that cannot be chosen, and stop at the ends.
  const enabled = rows.flatMap((row, position) => (row.disabled === undefined ? [position] : []))
  const before = enabled.filter((position) => position < index)
  const after = enabled.filter((position) => position > index)
  const stay = { type: 'move', index } as const
  if (key.upArrow || (key.ctrl && input === 'p') || (!key.ctrl && input === 'k')) {
    const target = before.at(-1)
    return target !== undefined ? { type: 'move', index: target } : stay
  }
  if (key.downArrow || (key.ctrl && input === 'n') || (!key.ctrl && input === 'j')) {
    const target = after[0]
    return target !== undefined ? { type: 'move', index: target } : stay
  }
  if (key.home || key.pageUp) return { type: 'move', index: enabled[0] ?? index }
  if (key.end || key.pageDown) return { type: 'move', index: enabled.at(-1) ?? index }
  if (key.return) return rows[index]?.disabled === undefined ? { type: 'choose', index } : { type: 'none' }
  const byNumber = Number.parseInt(input, 10)
  if (/^[1-9]$/.test(input) && byNumber <= rows.length && rows[byNumber - 1]?.disabled === undefined)
    return { type: 'choose', index: byNumber - 1 }
  return { type: 'none' }
}

/** The rows a window of `height` shows so that `index` stays in view (centred where it can). */
export function pickerWindow(count: number, index: number, height: number): { first: number; last: number } {
  if (count <= height) return { first: 0, last: count }
  const first = Math.max(0, Math.min(index - Math.floor(height / 2), count - height))
  return { first, last: first + height }
}

/**
 * A bordered list to choose from: a title, the rows (a window of `height` of them, with "more"
 * markers), and a line of keys. Rows are cut to one line each, so the picker never outgrows a small
 * terminal.
 */
export function PickerView({
  title,
  subtitle,
  rows,
  index,
  height,
  empty,
  hint = '↑/↓ to move · Enter to choose · Esc to cancel',
}: {
  title: string
  subtitle?: string
  rows: readonly PickerRow[]
  index: number
  height: number
  empty?: string
  hint?: string
}): ReactNode {
  const { first, last } = pickerWindow(rows.length, index, Math.max(1, height))
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold color="cyan">
        {title}
      </Text>
      {subtitle !== undefined ? <Text dimColor>{subtitle}</Text> : null}
      {rows.length === 0 ? <Text dimColor>{empty ?? 'Nothing to choose from.'}</Text> : null}
      {first > 0 ? <Text dimColor>{`  ↑ ${first} more`}</Text> : null}
      {rows.slice(first, last).map((row, offset) => {
        const active = first + offset === index
        const colour = row.disabled !== undefined ? { dimColor: true } : active ? { color: 'cyan' } : {}
        return (
          <Text key={row.key} wrap="truncate-end" {...colour}>
            {active ? '❯ ' : '  '}
            {row.label}
            {row.detail !== undefined ? <Text dimColor>{`  ${row.detail}`}</Text> : null}
            {row.disabled !== undefined ? <Text dimColor>{`  (${row.disabled})`}</Text> : null}
          </Text>
        )
      })}
      {last < rows.length ? <Text dimColor>{`  ↓ ${rows.length - last} more`}</Text> : null}
      <Text dimColor>{hint}</Text>
    </Box>
  )
}
