import { readdirSync, readFileSync } from 'node:fs'

/** How long a process tree gets between SIGTERM and SIGKILL by default. */
export const DEFAULT_KILL_GRACE_MS = 2_000

interface ProcEntry {
  pid: number
  ppid: number
  pgid: number
  zombie: boolean
}

/** Every process on a Linux host (empty elsewhere: callers fall back to the process group). */
function scanProcesses(): ProcEntry[] {
  if (process.platform !== 'linux') return []
  const entries: ProcEntry[] = []
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return []
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      // The command name is in parentheses and may contain spaces; the fields follow the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      entries.push({
        pid: Number(name),
        ppid: Number(fields[1]),
        pgid: Number(fields[2]),
        zombie: fields[0] === 'Z',
      })
    } catch {
      // The process exited while we looked.
    }
  }
  return entries
}

/** Whether `pid` is running (a zombie waiting to be reaped counts as gone). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  if (process.platform !== 'linux') return true
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return false
  }
}

/**
 * The live processes of a tree: members of the process group `rootPid` leads plus every descendant
 * of `known` pids (a child that called setsid left the group but is still a descendant).
 */
export function processTree(rootPid: number, known: Iterable<number> = [rootPid]): number[] {
  const entries = scanProcesses()
  const tree = new Set<number>()
  for (const entry of entries) if (entry.pgid === rootPid && !entry.zombie) tree.add(entry.pid)
  const parents = new Set<number>([rootPid, ...known, ...tree])
  let grew = true
  while (grew) {
    grew = false
    for (const entry of entries) {
      if (entry.zombie || parents.has(entry.pid) || !parents.has(entry.ppid)) continue
      parents.add(entry.pid)
      tree.add(entry.pid)
      grew = true
    }
  }
  for (const pid of known) if (isProcessAlive(pid)) tree.add(pid)
  if (isProcessAlive(rootPid)) tree.add(rootPid)
  return [...tree]
}

function signalTree(rootPid: number | undefined, pids: Iterable<number>, signal: NodeJS.Signals): void {
  try {
    if (rootPid !== undefined) process.kill(-rootPid, signal)
  } catch {
    // The group is empty or gone; descendants outside it are signalled below.
  }
  for (const pid of pids) {
    try {
      process.kill(pid, signal)
    } catch {
      // Already gone.
    }
  }
}

/**
 * Kills a process tree started as a process-group leader: SIGTERM to the group and every known
 * descendant, then SIGKILL to whatever is left after `graceMs`. Resolves once nothing of the tree
 * is alive (or after the SIGKILL round, which cannot be ignored).
 */
export function killProcessTree(rootPid: number, graceMs = DEFAULT_KILL_GRACE_MS): Promise<void> {
  return killTree(rootPid, processTree(rootPid), graceMs)
}

/**
 * Kills these processes and their descendants without signalling any process group: for what a
 * finished leader left behind, whose group id may by now belong to someone else.
 */
export function killProcesses(pids: readonly number[], graceMs = DEFAULT_KILL_GRACE_MS): Promise<void> {
  return killTree(undefined, pids.filter(isProcessAlive), graceMs)
}

async function killTree(
  rootPid: number | undefined,
  initial: Iterable<number>,
  graceMs: number,
): Promise<void> {
  // Remember every pid seen, so a descendant that is reparented to init mid-kill is not lost.
  const seen = new Set(initial)
  const refresh = (): void => {
    const tree = rootPid === undefined ? descendantsOf(seen) : processTree(rootPid, seen)
    for (const pid of tree) seen.add(pid)
  }
  refresh()
  signalTree(rootPid, seen, 'SIGTERM')
  const deadline = Date.now() + graceMs
  while (Date.now() < deadline) {
    refresh()
    if (![...seen].some(isProcessAlive) && (rootPid === undefined || !groupAlive(rootPid))) return
    await delay(25)
  }
  refresh()
  signalTree(rootPid, [...seen].filter(isProcessAlive), 'SIGKILL')
  const killDeadline = Date.now() + 1_000
  while (Date.now() < killDeadline && [...seen].some(isProcessAlive)) await delay(10)
}

/** Live descendants of `pids` (Linux; empty elsewhere). */
function descendantsOf(pids: Set<number>): number[] {
  const entries = scanProcesses()
  const found = new Set(pids)
  let grew = true
  while (grew) {
    grew = false
    for (const entry of entries) {
      if (entry.zombie || found.has(entry.pid) || !found.has(entry.ppid)) continue
      found.add(entry.pid)
      grew = true
    }
  }
  return [...found].filter((pid) => !pids.has(pid))
}

function groupAlive(rootPid: number): boolean {
  if (process.platform === 'linux') return processTree(rootPid, []).length > 0
  try {
    process.kill(-rootPid, 0)
    return true
  } catch {
    return false
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
