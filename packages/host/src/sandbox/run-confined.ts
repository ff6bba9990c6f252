import { withNeutralGit } from '../git/neutral-git.js'
import { runShellCommand, type ShellRunOptions, type ShellRunResult } from '../process/shell.js'
import type { SandboxMode } from './profile.js'
import type { PreparedSandbox, SandboxRequest } from './sandbox.js'

/** What decides a command's confinement (a session's {@link Sandbox}, or a fake in tests). */
export interface CommandSandbox {
  prepare(request: SandboxRequest): Promise<PreparedSandbox | undefined>
}

/** A shell run's result and the mode it ran confined in (absent: unconfined). */
export interface ConfinedShellResult extends ShellRunResult {
  confinement?: SandboxMode
}

/**
 * Runs one shell command through the sandbox when it confines this request (and unconfined when
 * it does not, or when there is no sandbox), releasing the sandbox's placeholders afterwards. A
 * request with a granted confinement runs with {@link withNeutralGit}'s environment (unless a rule
 * allowed it: `gitAsConfigured`).
 */
export async function runConfinedShell(
  command: string,
  options: Omit<ShellRunOptions, 'wrap'> & { sandbox?: CommandSandbox; request: SandboxRequest },
): Promise<ConfinedShellResult> {
  const { sandbox, request, ...rest } = options
  // A line the policy auto-allowed runs git with the repository's program-running keys overridden.
  const shell = neutralisesGit(request) ? { ...rest, env: withNeutralGit(rest.env) } : rest
  const prepared = await sandbox?.prepare(request)
  if (!prepared) return runShellCommand(command, shell)
  let result: ShellRunResult
  try {
    result = await runShellCommand(command, { ...shell, wrap: prepared.wrap })
  } finally {
    await prepared.release()
  }
  // What the sandbox undid after the command (a protected file it created) is part of its output.
  const notices = prepared.notices ?? []
  const output =
    notices.length > 0
      ? `${result.output}${result.output.endsWith('\n') || result.output === '' ? '' : '\n'}${notices.join('\n')}\n`
      : result.output
  return { ...result, output, confinement: prepared.mode }
}

/** Whether a request runs git with the repository's program-running keys overridden. */
export function neutralisesGit(request: SandboxRequest | undefined): boolean {
  return request?.granted !== undefined && request.gitAsConfigured !== true
}
