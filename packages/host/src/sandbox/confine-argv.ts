import type { SandboxMode } from './profile.js'
import type { CommandSandbox } from './run-confined.js'
import type { SandboxRequest } from './sandbox.js'

/** A program's argv after confinement: run `argv`; call `release` once the process has exited. */
export interface ConfinedArgv {
  argv: string[]
  /** The mode it runs confined in; absent: unconfined (no backend on this machine). */
  mode?: SandboxMode
  release(): Promise<void>
}

/**
 * Confines a program the engine starts itself (a language server, an MCP server, a hook): how the
 * engine's process-start paths reach the sandbox. Absent (no sandbox given): unconfined.
 */
export type ArgvConfiner = (argv: readonly string[], cwd: string) => Promise<ConfinedArgv>

/**
 * The one entry for a long-lived program the engine starts (issue 34): it runs in the same view as
 * a write-confined Bash command (the project writable, the home empty), with the program's own
 * files shown read-only (`programs`: the absolute paths in its argv) and the network as `network`
 * says. Without a backend, the argv is returned as it is.
 */
export async function confineArgv(
  sandbox: CommandSandbox | undefined,
  request: Omit<SandboxRequest, 'granted' | 'programs'>,
  argv: readonly string[],
  cwd: string,
): Promise<ConfinedArgv> {
  const prepared = await sandbox?.prepare({ ...request, granted: 'write', programs: argv })
  if (!prepared) return { argv: [...argv], release: async () => {} }
  return { argv: prepared.wrap([...argv], cwd), mode: prepared.mode, release: () => prepared.release() }
}
