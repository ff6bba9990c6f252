import type { EarlyComposer } from './tui/early-composer.js'

/** What a subcommand gets: its arguments and the process streams (injectable for tests). */
export interface CommandIo {
  argv: readonly string[]
  stdin: NodeJS.ReadableStream
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  env: NodeJS.ProcessEnv
  cwd: string
  /** The chat's early prompt box, when the router drew one before loading the chat (issue 17). */
  early?: EarlyComposer
}

/** A subcommand's entry point; resolves to the process exit code. */
export type CommandMain = (io: CommandIo) => Promise<number>

/** One entry of the router: loaded lazily so `--version` and `--help` stay fast. */
export interface CommandEntry {
  name: string
  summary: string
  load: () => Promise<{ main: CommandMain }>
}
