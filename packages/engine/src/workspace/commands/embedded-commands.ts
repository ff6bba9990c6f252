/** How an embedded `` !`cmd` `` ran. */
export interface ShellRunResult {
  exitCode: number | null
  stdout: string
  stderr: string
}

/** What running embedded commands needs from the session. */
export interface EmbeddedCommandDeps {
  projectRoot: string
  /** Whether the command's granted rules or the session policy allow running this line. */
  canRun(command: string): boolean | Promise<boolean>
  /** Runs a shell line in `cwd` (the project root) and returns its output; should not throw. */
  runShell(command: string, cwd: string, signal?: AbortSignal): Promise<ShellRunResult>
  signal?: AbortSignal
  /**
   * Claude Code's PreSkillShellCommand hooks, asked before each line is decided: `refused` keeps the
   * line from running (the hook's reason, maybe empty), `stop` drops the whole command.
   */
  screen?(command: string): Promise<{ refused?: string; stop?: string }>
  /** The command's name, for what the user is told about a refused line (`/commit`). */
  commandName?: string
}

/**
 * `` !`cmd` `` at the start of a line or after whitespace (mid-line too: Claude Code's `/commit`
 * example has `- Current status: !`git status``), or a fenced block opened with ```` ```! ````, as
 * Claude Code finds them (`(?<=^|\s)!`[^`]+``). A `!` glued to a word (`hi!`x``) is text there too.
 */
const EMBEDDED = /(?<=^|\s)!`([^`]+)`|^```![ \t]*\n([\s\S]*?)\n```[ \t]*$/gm

/**
 * Replaces each embedded command (`` !`cmd` `` or a ```` ```! ```` block) with its output,
 * run in the project root, only when allowed; a refused command becomes a bracketed note in the text
 * and a notice for the user.
 */
export async function runEmbeddedCommands(
  text: string,
  deps: EmbeddedCommandDeps,
): Promise<{ text: string; notices: string[]; ran: string[]; stopped?: string }> {
  const notices: string[] = []
  const ran: string[] = []
  const replacements: string[] = []
  // Sequential, in order: these are shell commands and may depend on each other's effects.
  for (const match of text.matchAll(EMBEDDED)) {
    const command = (match[1] ?? match[2] ?? '').trim()
    const screened = (await deps.screen?.(command)) ?? {}
    // `continue: false` drops the command: nothing after it runs, and no turn starts.
    if (screened.stop !== undefined) return { text, notices, ran, stopped: screened.stop }
    if (screened.refused !== undefined) {
      const why = screened.refused === '' ? 'blocked by hook' : `blocked by hook: ${screened.refused}`
      notices.push(`Not run in /${deps.commandName ?? 'command'}: ${command} (${why})`)
      replacements.push(`[not run: ${why}]`)
      continue
    }
    if (!(await deps.canRun(command))) {
      notices.push(
        `!\`${command}\` was not run: neither the command's allowed-tools nor the session's permissions allow it.`,
      )
      replacements.push(`[not run: \`${command}\` is not allowed]`)
      continue
    }
    let output: ShellRunResult
    try {
      output = await deps.runShell(command, deps.projectRoot, deps.signal)
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      notices.push(`!\`${command}\` failed to run: ${reason}`)
      replacements.push(`[\`${command}\` failed to run: ${reason}]`)
      continue
    }
    ran.push(command)
    replacements.push(formatOutput(output))
  }
  let index = 0
  return { text: text.replace(EMBEDDED, () => replacements[index++]!), notices, ran }
}

function formatOutput(output: ShellRunResult): string {
  const stdout = output.stdout.replace(/\s+$/, '')
  if (output.exitCode === 0) return stdout
  const stderr = output.stderr.replace(/\s+$/, '')
  const status = output.exitCode === null ? 'killed' : `exit code ${output.exitCode}`
  return [stdout, stderr, `[${status}]`].filter((part) => part !== '').join('\n')
}
