import { parseMemoryNote } from '@z-engine/engine/definitions'

/** A `/` command the composer completes: the CLI's own, or one the session's engine answers. */
export interface SlashCommand {
  name: string
  description: string
  argumentHint?: string
  /** `cli` commands are handled by the terminal UI; `engine` ones are sent as `runCommand`. */
  owner: 'cli' | 'engine'
}

/** The terminal UI's own commands (the engine never sees them). */
export const CLI_COMMANDS: readonly SlashCommand[] = [
  { name: 'help', description: 'Show keys and commands', owner: 'cli' },
  { name: 'sessions', description: "List this project's sessions (resume with --resume <id>)", owner: 'cli' },
  { name: 'clear', description: 'Start a new conversation in this project', owner: 'cli' },
  {
    name: 'rewind',
    description: 'Go back to before one of your messages: code, conversation or both (Esc Esc)',
    owner: 'cli',
  },
  { name: 'resume', description: 'Pick a stored session of this project to continue', owner: 'cli' },
  {
    name: 'trust',
    description: 'Trust this folder so its hooks, MCP servers and allow rules apply',
    owner: 'cli',
  },
  { name: 'exit', description: 'Quit (the session is saved; resume it with --continue)', owner: 'cli' },
]

/** The CLI's own command names. */
export type CliCommandName = 'help' | 'sessions' | 'clear' | 'rewind' | 'resume' | 'trust' | 'exit'

/** What a submitted line is: a prompt, a CLI command, or an engine command with its raw arguments. */
export type ParsedLine =
  | { type: 'prompt'; text: string }
  /** `!command`: the user's own shell line (Claude Code's bash mode). */
  | { type: 'shell'; command: string }
  | { type: 'cli'; name: CliCommandName; args: string }
  | { type: 'engine'; name: string; args: string }

/**
 * Classifies a submitted line. `/quit` is `/exit`; `//text` sends `/text` as a prompt; `!cmd` runs a
 * shell line; `# note` is a memory note (Claude Code's `#`): `/remember --ask`, which asks where it
 * goes, saves it and reloads the instructions instead of sending it to the model (a `## heading`
 * stays a prompt).
 */
export function parseLine(line: string): ParsedLine {
  const text = line.trim()
  if (text.startsWith('!')) return { type: 'shell', command: text.slice(1).trim() }
  const note = parseMemoryNote(text)
  if (note !== null) return { type: 'engine', name: 'remember', args: `--ask ${note}` }
  if (!text.startsWith('/') || text.startsWith('//')) {
    return { type: 'prompt', text: text.startsWith('//') ? text.slice(1) : text }
  }
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(text)
  const name = match?.[1] ?? ''
  const args = match?.[2] ?? ''
  const cliName = name === 'quit' ? 'exit' : name
  if (CLI_COMMANDS.some((command) => command.name === cliName))
    return { type: 'cli', name: cliName as CliCommandName, args }
  return { type: 'engine', name, args }
}

/** The commands whose name starts with what follows `/` (no completion once arguments begin). */
export function completions(line: string, commands: readonly SlashCommand[]): SlashCommand[] {
  const match = /^\/(\S*)$/.exec(line)
  if (!match) return []
  const prefix = (match[1] ?? '').toLowerCase()
  return commands.filter((command) => command.name.toLowerCase().startsWith(prefix))
}
