import { type CommandWrapper, runShellCommand } from '@z-engine/host'
import type { ShellRunner } from './ctx.js'

/** A ShellRunner over host's shell with a fixed environment (and optional sandbox wrapper). */
export function createShellRunner(options: {
  env: Record<string, string>
  shellPath?: string
  wrap?: CommandWrapper
  killGraceMs?: number
}): ShellRunner {
  return {
    run: (command, run) =>
      runShellCommand(command, {
        cwd: run.cwd,
        env: options.env,
        timeoutMs: run.timeoutMs,
        signal: run.signal,
        ...(run.onOutput ? { onOutput: run.onOutput } : {}),
        ...(options.shellPath ? { shellPath: options.shellPath } : {}),
        ...(options.wrap ? { wrap: options.wrap } : {}),
        ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
      }),
  }
}
