import { Box, useApp, useInput, useStdout } from 'ink'
import { type ReactNode, useRef, useState } from 'react'
import type { SessionRow } from '../sessions/session-listing.js'
import { PickerView, pickerKey } from './picker.js'
import { sessionPickerRows } from './session-picker.js'

/** What the start-up picker was given: the sessions (this project's first) and where to say the choice. */
export interface SessionPickerProps {
  rows: readonly SessionRow[]
  /** The chosen row, or undefined when the user cancelled (Esc, Ctrl-C). */
  onDone: (row: SessionRow | undefined) => void
}

/** The picker as an element for Ink's `render` (see `chatAppElement` for why it is made here). */
export function sessionPickerElement(props: SessionPickerProps): ReactNode {
  return <SessionPicker {...props} />
}

/** `z-engine --resume` in a terminal: choose a stored session, this project's first, by title and time. */
export function SessionPicker({ rows, onDone }: SessionPickerProps): ReactNode {
  const [index, setIndex] = useState(0)
  // Keys typed fast arrive before React re-renders: Enter must see the row Down just moved to, not
  // the index this render closed over.
  const current = useRef(0)
  const { exit } = useApp()
  const { stdout } = useStdout()
  const pickerRows = sessionPickerRows(rows)
  useInput((input, key) => {
    const result =
      key.ctrl && input === 'c'
        ? ({ type: 'cancel' } as const)
        : pickerKey(pickerRows, current.current, input, key)
    switch (result.type) {
      case 'move':
        current.current = result.index
        setIndex(result.index)
        return
      case 'choose':
        onDone(rows[result.index])
        exit()
        return
      case 'cancel':
        onDone(undefined)
        exit()
        return
      case 'none':
        return
      default: {
        const unreachable: never = result
        throw new Error(`unknown picker key ${JSON.stringify(unreachable)}`)
      }
    }
  })
  const mine = rows.filter((row) => row.inProject).length
  return (
    <Box paddingX={1}>
      <PickerView
        title="Resume a session"
        subtitle={`${mine} in this project (first), ${rows.length - mine} elsewhere`}
        rows={pickerRows}
        index={index}
        height={Math.max(3, (stdout.rows ?? 24) - 6)}
      />
    </Box>
  )
}
