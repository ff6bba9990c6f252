import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { prepareSupervision, releaseGroupIfEmpty, superviseGroup } from './supervisor.js'

/** What to start as a long-lived, piped child. */
export interface SpawnSupervisedOptions {
  file: string
  args: readonly string[]
  cwd: string
  env: Record<string, string>
}

/**
 * Starts a long-lived child that talks over its stdin and stdout (an MCP server, a language
 * server) as the leader of its own process group, registered with the watchdog (`supervisor.ts`)
 * so that the group is killed even when this process is SIGKILLed. Killing the child's tree is the
 * caller's job (`killProcessTree(pid)`); the group is forgotten once it is empty. Spawn failures
 * (`ENOENT`, a missing cwd) arrive as the child's `error` event, as with `spawn`.
 */
export function spawnSupervised(options: SpawnSupervisedOptions): ChildProcessWithoutNullStreams {
  prepareSupervision()
  const child = spawn(options.file, [...options.args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  })
  const pid = child.pid
  if (pid !== undefined) {
    superviseGroup(pid)
    child.once('exit', () => releaseGroupIfEmpty(pid))
  }
  return child
}
