import { type CommandSandbox, type ProcessScope, runConfinedShell, type SandboxRequest } from '@z-engine/host'
import type { PermissionMode, Settings } from '@z-engine/protocol'
import { actionFor, grantOf } from '@z-engine/tools'
import type { SessionGate } from '../gate/session-gate.js'
import { childEnvironmentFor } from '../workspace/settings/child-environment.js'

/** What a user's `!` line produced. */
export interface UserShellResult {
  /** stdout and stderr as the shell interleaved them. */
  output: string
  /** null when the command was killed (timeout or cancel). */
  exitCode: number | null
}

/**
 * Runs a line the user (or a prompt command's `!` line) asked for, through host's process runner
 * with the `[shell.env]` environment policy: the same environment a Bash call would get, never the
 * caller's unfiltered one. Process-group kill, timeout and output cap are host's.
 */
export async function runUserShell(
  command: string,
  options: {
    cwd: string
    settings: Settings
    /** The environment the policy filters (the process's, or an embedder's). */
    baseEnv: Readonly<Record<string, string | undefined>>
    timeoutMs?: number
    signal?: AbortSignal
    /**
     * The session's sandbox and this line's request: a user's line runs confined when
     * `[shell.sandbox]` is on; an embedded line the policy auto-allowed, whenever a backend exists.
     */
    sandbox?: CommandSandbox
    request?: SandboxRequest
    /** The session whose close kills what the line left running. */
    scope?: ProcessScope
  },
): Promise<UserShellResult> {
  const result = await runConfinedShell(command, {
    request: options.request ?? { root: options.cwd, additionalDirectories: [] },
    ...(options.sandbox && options.request ? { sandbox: options.sandbox } : {}),
    cwd: options.cwd,
    env: childEnvironmentFor(options.baseEnv, options.settings),
    timeoutMs: options.timeoutMs ?? options.settings.shell.default_timeout_ms,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.scope ? { scope: options.scope } : {}),
  })
  return { output: result.output, exitCode: result.exitCode }
}

/**
 * How the user's own `!` line is confined (issue 34): decided as the model's Bash call would be, it
 * runs with the confinement that decision relied on — a proven read-only line read-only (git's
 * program-running keys neutralised), a rule-allowed one in write mode. A line the gate would ask
 * about counts as approved (the user typed it) and follows `[shell.sandbox] enabled`, as does every
 * line with `confine_user_lines = false`. Nothing is refused: a deny rule binds the model, not the user.
 */
export async function userLineGrant(
  command: string,
  options: { gate: SessionGate; mode: PermissionMode; settings: Settings; projectRoot: string; home: string },
): Promise<Pick<SandboxRequest, 'granted' | 'gitAsConfigured'>> {
  if (!options.settings.shell.sandbox.confine_user_lines) return {}
  await options.gate.ready()
  const { projectRoot, home } = options
  const action = actionFor('Bash', { command }, { projectRoot, cwd: projectRoot, home })
  const verdict = options.gate.decide('Bash', action, options.mode)
  return verdict.decision === 'allow' ? grantOf(verdict.confinement) : {}
}
