import { DEFAULT_KILL_GRACE_MS, killProcessTree } from './kill-tree.js'
import { groupHasMembers, isSupervisedGroup, releaseGroupIfEmpty } from './supervisor.js'

/**
 * The process groups started on behalf of one owner (a session): foreground commands, background
 * shells, hooks, `!` lines. `killAll` ends every one that still has members when the owner closes,
 * running or not: what a finished command left in its group (`(sleep 300 &)`, `server &`) dies
 * with the session, not only with the engine. A group is forgotten once it is empty (the
 * supervisor released it), since its id may then be reused by an unrelated process.
 */
export class ProcessScope {
  readonly #groups = new Set<number>()
  #closed = false

  /** Records a group started for this owner; one started after {@link killAll} is killed at once. */
  add(pgid: number): void {
    for (const known of this.#groups) if (!isSupervisedGroup(known)) this.#groups.delete(known)
    if (this.#closed) {
      void killGroup(pgid, 0)
      return
    }
    this.#groups.add(pgid)
  }

  /** Groups recorded and not yet known to be empty. */
  get size(): number {
    return this.#groups.size
  }

  /** Kills every group of this scope (SIGTERM, then SIGKILL after `graceMs`); later starts die at once. */
  async killAll(graceMs = DEFAULT_KILL_GRACE_MS): Promise<void> {
    this.#closed = true
    const groups = [...this.#groups]
    this.#groups.clear()
    await Promise.all(groups.map((pgid) => killGroup(pgid, graceMs)))
  }
}

async function killGroup(pgid: number, graceMs: number): Promise<void> {
  // A released group was empty; its id may belong to someone else by now.
  if (!isSupervisedGroup(pgid)) return
  if (groupHasMembers(pgid)) await killProcessTree(pgid, graceMs)
  releaseGroupIfEmpty(pgid)
}
