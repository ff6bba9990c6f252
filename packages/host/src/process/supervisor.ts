import { type ChildProcess, spawn } from 'node:child_process'
import type { Writable } from 'node:stream'
import { killProcessTree, processTree } from './kill-tree.js'

/**
 * A watchdog that outlives the engine's process: a tiny `sh` started in its own session, told the
 * process group of every command the engine starts (`+pid`) and ends (`-pid`) over its stdin. When
 * the engine dies — exit, crash or SIGKILL, which no handler in the engine can catch — the kernel
 * closes that pipe, `read` sees end of file, and the watchdog sends SIGTERM and then SIGKILL to
 * every group still registered. Node has no `prctl(PR_SET_PDEATHSIG)`; this needs none, works
 * without a sandbox, and costs one `sh` per engine process (no fork per command: the bookkeeping
 * is shell builtins).
 */
const SCRIPT = [
  // A Ctrl-C or hang-up meant for the engine must not take the watchdog down first.
  "trap '' INT HUP QUIT",
  "groups=' '",
  'while IFS= read -r line; do',
  '  case $line in',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
  '    +*) groups="$groups${line#+} " ;;',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
  '    -*) g=${line#-}; case $groups in *" $g "*) groups="${groups%%" $g "*} ${groups#*" $g "}" ;; esac ;;',
  '  esac',
  'done',
  '[ "$groups" = " " ] && exit 0',
  'for g in $groups; do kill -s TERM -- "-$g" 2>/dev/null; done',
  'sleep 1',
  'for g in $groups; do kill -s KILL -- "-$g" 2>/dev/null; done',
].join('\n')

let channel: Writable | null | undefined
let watchdog: ChildProcess | undefined

function open(): Writable | null {
  if (channel !== undefined) return channel
  if (process.platform === 'win32') {
    channel = null
    return channel
  }
  try {
    const child = spawn('/bin/sh', ['-c', SCRIPT], { stdio: ['pipe', 'ignore', 'ignore'], detached: true })
    child.on('error', () => {
      channel = null
    })
    const stdin = child.stdin
    if (!stdin) {
      channel = null
      return channel
    }
    stdin.on('error', () => {
      channel = null
    })
    // Neither the watchdog nor its pipe may keep the engine's event loop alive.
    child.unref()
    ;(stdin as Writable & { unref?: () => void }).unref?.()
    watchdog = child
    channel = stdin
  } catch {
    channel = null
  }
  return channel
}

/**
 * Starts the watchdog if it is not running. Call it before spawning a process that will be
 * supervised: starting the watchdog forks this (large) process, which can take longer than a short
 * command needs to start its own children, and an engine killed in that gap would leave the new
 * group unregistered. With the watchdog already up, registration follows the spawn at once.
 */
export function prepareSupervision(): void {
  open()
}

/** Groups started and not yet known to be empty; `true` once their leader exited. */
const live = new Map<number, boolean>()

/** Registers a process group with the watchdog, so it is killed if this process dies first. */
export function superviseGroup(pgid: number): void {
  live.set(pgid, false)
  open()?.write(`+${pgid}\n`)
}

/**
 * Called when a group's leader exited: forgets the group if no member is left (its id may be
 * reused by an unrelated process later). A group with members left (`server &`) stays registered
 * until {@link killSupervisedGroups} or the watchdog ends it.
 */
export function releaseGroupIfEmpty(pgid: number): void {
  if (!live.has(pgid)) return
  if (groupHasMembers(pgid)) {
    live.set(pgid, true)
    return
  }
  live.delete(pgid)
  if (channel) channel.write(`-${pgid}\n`)
}

/**
 * Kills what finished commands left running in their groups (`server &` in a foreground command):
 * for an engine shutting down, so nothing it started outlives it. Running commands are left to
 * their owners (another engine in the same process may still be using them).
 */
export async function killSupervisedGroups(graceMs?: number): Promise<void> {
  const groups = [...live].filter(([, leaderExited]) => leaderExited).map(([pgid]) => pgid)
  await Promise.all(
    groups.map(async (pgid) => {
      if (groupHasMembers(pgid)) await killProcessTree(pgid, graceMs)
      releaseGroupIfEmpty(pgid)
    }),
  )
}

/** Whether a group is registered: started here and not yet released as empty. */
export function isSupervisedGroup(pgid: number): boolean {
  return live.has(pgid)
}

/** Whether any live process is still in the group `pgid` (zombies waiting to be reaped do not count). */
export function groupHasMembers(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  // The signal check also counts zombies; on Linux, look closer.
  return process.platform !== 'linux' || processTree(pgid, []).length > 0
}

/** The watchdog's pid (tests), or undefined when none runs. */
export function watchdogPid(): number | undefined {
  open()
  return watchdog?.pid
}
