import { CUSTOM_COMMANDS } from './read-only-custom.js'
import type { ReadOnlyEntry } from './read-only-entry.js'
import { FILE_READERS } from './read-only-files.js'
import { FIND } from './read-only-find.js'
import { GIT } from './read-only-git.js'
import { DEV_COMMANDS, INFO_COMMANDS } from './read-only-info.js'
import { SCRIPT_TOOLS } from './read-only-scripts.js'
import { TEXT_TOOLS } from './read-only-text-tools.js'

/**
 * The commands the read-only proof accepts, each with the options it may take (an allowlist: an
 * unknown option, an ambiguous abbreviation or a value that may still expand proves nothing). A
 * command not listed here is never proven read-only. Each entry's examples are checked by a test.
 */
export const READ_ONLY_COMMANDS: readonly ReadOnlyEntry[] = [
  ...FILE_READERS,
  FIND,
  GIT,
  ...SCRIPT_TOOLS,
  ...TEXT_TOOLS,
  ...CUSTOM_COMMANDS,
  ...INFO_COMMANDS,
  ...DEV_COMMANDS,
]

const BY_NAME = new Map<string, ReadOnlyEntry>()
for (const entry of READ_ONLY_COMMANDS) for (const name of entry.names) BY_NAME.set(name, entry)

/** The table entry of a command name, if the proof knows it. */
export function readOnlyEntry(name: string): ReadOnlyEntry | undefined {
  return BY_NAME.get(name)
}
