import { Box, Text } from 'ink'
import type { ReactNode } from 'react'
import type { SlashCommand } from './slash-commands.js'

/** How many completions the list shows at once. */
export const COMPLETION_ROWS = 8

/** The input line, with `/` command completions under it while a command name is typed. */
export function Composer({
  value,
  matches,
  selected,
  busy,
}: {
  value: string
  matches: readonly SlashCommand[]
  selected: number
  busy: boolean
}): ReactNode {
  const first = Math.max(0, Math.min(selected - COMPLETION_ROWS + 1, matches.length - COMPLETION_ROWS))
  const shown = matches.slice(first, first + COMPLETION_ROWS)
  return (
    <Box flexDirection="column">
      <Box borderStyle="round" borderColor={busy ? 'gray' : 'blue'} paddingX={1}>
        <Text color="blue">{'› '}</Text>
        {value === '' ? (
          <Text dimColor>
            {busy ? 'Type to queue a message for the running turn' : 'Ask anything, / for commands'}
          </Text>
        ) : (
          <Text>{value}</Text>
        )}
        <Text inverse> </Text>
      </Box>
      {shown.map((command, index) => {
        const active = first + index === selected
        return (
          <Text key={command.name} {...(active ? { color: 'cyan' } : {})}>
            {active ? '❯ ' : '  '}
            {`/${command.name}`}
            {command.argumentHint !== undefined ? <Text dimColor>{` ${command.argumentHint}`}</Text> : null}
            <Text dimColor>{`  ${command.description}`}</Text>
          </Text>
        )
      })}
    </Box>
  )
}
