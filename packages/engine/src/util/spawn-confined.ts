import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { type ArgvConfiner, type ConfinedArgv, spawnSupervised } from '@z-engine/host'

/** `argv` confined by `confine` when one is given; otherwise as it is, with nothing to release. */
export async function confineOrAsIs(
  confine: ArgvConfiner | undefined,
  argv: readonly string[],
  cwd: string,
): Promise<ConfinedArgv> {
  return confine ? confine(argv, cwd) : { argv: [...argv], release: async () => {} }
}

/**
 * Starts a confined argv as a supervised process (its own group) and releases the confinement once,
 * when the process exits or fails to start. Synchronous, so the caller's listeners for `spawn` and
 * `error` are attached before either can fire.
 */
export function spawnConfined(
  confined: ConfinedArgv,
  cwd: string,
  env: Record<string, string>,
): ChildProcessWithoutNullStreams {
  const child = spawnSupervised({ file: confined.argv[0] as string, args: confined.argv.slice(1), cwd, env })
  let released = false
  const release = () => {
    if (released) return
    released = true
    void confined.release()
  }
  child.once('exit', release)
  child.once('error', release)
  return child
}
