import { type CommandSandbox, type ProcessScope, runConfinedShell } from '@z-engine/host'
import type { ShellRunner } from './ctx.js'

/**
 * A ShellRunner over host's shell with a fixed environment. With a sandbox, each command runs
 * confined as its request asks (see `Sandbox.prepare`); without one, or without a request, unconfined.
 */
export function createShellRunner(options: {
  env: Record<string, string>
  shellPath?: string
  sandbox?: CommandSandbox
  killGraceMs?: number
  /** The session whose close kills what commands left running (`server &`, `(sleep 300 &)`). */
  scope?: ProcessScope
}): ShellRunner {
  return {
    run: (command, run) =>
      runConfinedShell(command, {
        cwd: run.cwd,
        env: options.env,
        timeoutMs: run.timeoutMs,
        signal: run.signal,
        request: run.sandbox ?? { root: run.cwd, additionalDirectories: [] },
        ...(run.sandbox && options.sandbox ? { sandbox: options.sandbox } : {}),
        ...(run.onOutput ? { onOutput: run.onOutput } : {}),
        ...(options.shellPath ? { shellPath: options.shellPath } : {}),
        ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
        ...(options.scope ? { scope: options.scope } : {}),
      }),
  }
}
