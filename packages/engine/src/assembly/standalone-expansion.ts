import { ProcessScope } from '@z-engine/host'
import type { Confinement } from '@z-engine/policy'
import { grantOf } from '@z-engine/tools'
import type { ExpandCommandDeps } from '../workspace/commands/expand.js'
import { openStandaloneGate, type StandaloneGateInput } from './standalone-gate.js'
import { runUserShell } from './user-shell.js'

/** How long a command's embedded line may run, in a session and in `commands expand`. */
export const EMBEDDED_SHELL_TIMEOUT_MS = 30_000

/** What expanding a command outside a session decides and runs with; `close` when done. */
export interface StandaloneExpansion extends Pick<ExpandCommandDeps, 'canRead' | 'canRun' | 'runShell'> {
  /** Set when no sandbox backend exists (lines run unconfined); say it once. */
  warning?: string
  /** Kills what the lines left running and removes the sandbox's temp folder. */
  close(): Promise<void>
}

/**
 * `@file` reads and `` !`cmd` `` lines for `commands expand`, decided and run as a session does
 * (issue 13): the gate over the same settings with the sandbox's facts, each allowed line through
 * the sandbox under the confinement its allow relied on (or `[shell.sandbox] enabled`) with the
 * same masks (deny-ruled paths, the engine's folders), with the `[shell.env]` allowlisted
 * environment (starting from `input.env`), and its processes killed at `close`.
 */
export async function openStandaloneExpansion(input: StandaloneGateInput): Promise<StandaloneExpansion> {
  const { opened, gate } = await openStandaloneGate(input)
  const additionalDirectories = input.settings.permissions.additional_directories
  const confinements = new Map<string, Confinement>()
  const processes = new ProcessScope()
  return {
    canRead: (path, granted) => gate.allows('Read', { file_path: path }, granted),
    canRun: (command, granted) =>
      gate.allows('Bash', { command }, granted, (confinement) => confinements.set(command, confinement)),
    runShell: async (command, cwd, signal) => {
      const confinement = confinements.get(command)
      // What `Read(...)` deny rules name is masked in the view, as in a session (issue 34).
      const masked = opened.sandbox.available
        ? await gate.deniedReadPaths([input.projectRoot, ...additionalDirectories])
        : []
      const result = await runUserShell(command, {
        request: {
          root: input.projectRoot,
          additionalDirectories,
          ...grantOf(confinement),
          ...(masked.length > 0 ? { masked } : {}),
        },
        sandbox: opened.sandbox,
        cwd,
        settings: input.settings,
        baseEnv: input.env,
        timeoutMs: EMBEDDED_SHELL_TIMEOUT_MS,
        scope: processes,
        ...(signal ? { signal } : {}),
      })
      return { exitCode: result.exitCode, stdout: result.output, stderr: '' }
    },
    ...(opened.warning !== undefined ? { warning: opened.warning } : {}),
    close: async () => {
      await processes.killAll()
      await opened.sandbox.dispose()
    },
  }
}
