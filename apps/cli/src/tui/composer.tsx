import { Box, Text } from 'ink'
import type { ReactNode } from 'react'
import type { PromptBuffer } from './prompt-buffer.js'

/** How many completions the list shows at once. */
export const COMPLETION_ROWS = 8

/** One row of the completion list under the prompt: a `/` command or an `@` file. */
export interface CompletionRow {
  key: string
  label: string
  hint?: string
  description?: string
}

/**
 * The prompt box: the text with its line breaks and the cursor where it is, `!` shell mode in its
 * own colour, and the completion list (`/` commands, `@` files) under it.
 */
export function Composer({
  value,
  matches,
  selected,
  busy,
}: {
  value: PromptBuffer
  matches: readonly CompletionRow[]
  selected: number
  busy: boolean
}): ReactNode {
  const first = Math.max(0, Math.min(selected - COMPLETION_ROWS + 1, matches.length - COMPLETION_ROWS))
  const shown = matches.slice(first, first + COMPLETION_ROWS)
  const shell = value.text.startsWith('!')
  const colour = shell ? 'magenta' : busy ? 'gray' : 'blue'
  return (
    <Box flexDirection="column">
      <Box borderStyle="round" borderColor={colour} paddingX={1}>
        <Text color={colour}>{shell ? '! ' : '› '}</Text>
        {value.text === '' ? (
          <Text>
            <Text inverse> </Text>
            <Text dimColor>
              {busy ? 'Type to queue a message for the running turn' : 'Ask anything, / for commands'}
            </Text>
          </Text>
        ) : (
          <PromptText value={value} shell={shell} />
        )}
      </Box>
      {shell && (
        <Text color="magenta" dimColor>
          {'  shell mode: runs in the project folder, output shown here and to the agent'}
        </Text>
      )}
      {shown.map((row, index) => {
        const active = first + index === selected
        return (
          <Text key={row.key} wrap="truncate-end" {...(active ? { color: 'cyan' } : {})}>
            {active ? '❯ ' : '  '}
            {row.label}
            {row.hint !== undefined ? <Text dimColor>{` ${row.hint}`}</Text> : null}
            {row.description !== undefined ? <Text dimColor>{`  ${row.description}`}</Text> : null}
          </Text>
        )
      })}
    </Box>
  )
}

function PromptText({ value, shell }: { value: PromptBuffer; shell: boolean }): ReactNode {
  // In shell mode the `!` is shown as the prompt sign, not as text.
  const offset = shell ? 1 : 0
  const text = value.text.slice(offset)
  const cursor = Math.max(0, value.cursor - offset)
  const at = text.codePointAt(cursor)
  const character = at === undefined ? '' : String.fromCodePoint(at)
  const onBreak = character === '' || character === '\n'
  const before = text.slice(0, cursor)
  const after = onBreak ? text.slice(cursor) : text.slice(cursor + character.length)
  return (
    <Text>
      {before}
      <Text inverse>{onBreak ? ' ' : character}</Text>
      {after}
    </Text>
  )
}
