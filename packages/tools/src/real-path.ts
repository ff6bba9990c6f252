import { constants, lstatSync, readlinkSync, realpathSync } from 'node:fs'
import { type FileHandle, open, readlink, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import type { ToolCtx } from './ctx.js'
import type { ToolError } from './tool-result.js'

/** How many links one resolution follows before it gives up (Linux's MAXSYMLINKS). */
const MAX_LINKS = 40

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code
}

/**
 * The real path of an absolute path on disk: symlinks resolved, a dangling link to where it points
 * (writing through it creates its target), a missing path to its nearest existing ancestor's real
 * path joined with the rest. Undefined for a link loop or a folder that cannot be read. The engine
 * passes it to the policy as a fact; the file tools resolve again at open time.
 */
export function realPathOnDisk(path: string, hops = 0): string | undefined {
  try {
    return realpathSync.native(path)
  } catch (error) {
    const reason = errno(error)
    if (reason !== 'ENOENT' && reason !== 'ENOTDIR') return undefined
  }
  let link = false
  try {
    link = lstatSync(path).isSymbolicLink()
  } catch (error) {
    const reason = errno(error)
    if (reason !== 'ENOENT' && reason !== 'ENOTDIR') return undefined
  }
  const parent = dirname(path)
  if (parent === path) return path
  const realParent = realPathOnDisk(parent, hops)
  if (realParent === undefined) return undefined
  if (!link) return join(realParent, basename(path))
  if (hops >= MAX_LINKS) return undefined
  let target: string
  try {
    target = readlinkSync(path)
  } catch {
    return undefined
  }
  return realPathOnDisk(resolve(realParent, target), hops + 1)
}

/** A refusal at open time: the file a path leads to is not the one the permission decision saw. */
function changed(path: string, decided: string, now: string | undefined): ToolError {
  return {
    code: 'path_changed',
    message: `${path} now leads to ${now ?? 'a path that cannot be resolved'}, not to ${decided} as when it was approved (a symlink changed after the permission decision). Nothing was read or written; check the link, then call again so the new target is decided on.`,
  }
}

/**
 * Resolves the real path of `path` now and compares it with the real path the permission decision
 * saw (`ctx.decidedRealPaths`, set by the engine for every read and write it decided on). Returns
 * the real path to open, or why the call must not go on. Without decided paths (a tool run outside
 * the engine's gate) the path is resolved and used as it is.
 */
export function realPathForOpen(
  path: string,
  ctx: ToolCtx,
): { ok: true; real: string } | { ok: false; error: ToolError } {
  const now = realPathOnDisk(path)
  const decided = ctx.decidedRealPaths?.[path]
  if (ctx.decidedRealPaths !== undefined && (decided === undefined || decided !== now)) {
    return { ok: false, error: changed(path, decided ?? path, now) }
  }
  if (now === undefined) {
    return {
      ok: false,
      error: {
        code: 'unresolvable',
        message: `The real path of ${path} cannot be resolved (a symlink loop or an unreadable folder).`,
      },
    }
  }
  return { ok: true, real: now }
}

/** Where an open file descriptor really is (Linux /proc), or undefined where that cannot be read. */
async function openedPath(handle: FileHandle): Promise<string | undefined> {
  return readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined)
}

/**
 * Whether `handle` is the file at `real`: by /proc on Linux, else by device and inode. Catches a
 * folder on the way swapped for a link between the check and the open.
 */
async function isAt(handle: FileHandle, real: string): Promise<boolean> {
  const opened = await openedPath(handle)
  if (opened !== undefined) return opened === real
  const [mine, there] = await Promise.all([handle.stat(), stat(real).catch(() => undefined)])
  return there !== undefined && mine.dev === there.dev && mine.ino === there.ino
}

/** Thrown (and turned into the tool's error result) when an opened file is not the checked one. */
export class PathChangedError extends Error {
  readonly code = 'path_changed'
}

/**
 * Opens the checked real path for reading without following a link in its last part, and makes
 * sure the opened file is that path. The caller closes the handle.
 */
export async function openForRead(real: string): Promise<FileHandle> {
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW)
  if (await isAt(handle, real)) return handle
  await handle.close()
  throw new PathChangedError(
    `${real} changed while it was being opened (a symlink was swapped); nothing was read.`,
  )
}

/**
 * Writes `bytes` to the checked real path: opened without following a link in its last part and
 * without truncating, verified to be that path, then truncated and written. A file created at the
 * wrong place by a swapped folder is removed again.
 */
export async function writeChecked(real: string, bytes: Uint8Array): Promise<void> {
  let handle: FileHandle
  let created = true
  try {
    handle = await open(
      real,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o666,
    )
  } catch (error) {
    if (errno(error) !== 'EEXIST') throw error
    created = false
    handle = await open(real, constants.O_WRONLY | constants.O_NOFOLLOW)
  }
  try {
    if (!(await isAt(handle, real))) {
      const actual = await openedPath(handle)
      if (created && actual !== undefined) await unlink(actual).catch(() => undefined)
      throw new PathChangedError(
        `${real} changed while it was being opened (a symlink was swapped); nothing was written.`,
      )
    }
    await handle.truncate(0)
    await handle.writeFile(bytes)
  } finally {
    await handle.close()
  }
}

/**
 * For a search that walks below one of the call's decided folders (Glob's `src/**` under the
 * project): the folder it starts in must really lie inside a folder the decision saw, so a pattern
 * through a link (`lnk/**` with `lnk -> ~`) cannot list outside. Undefined when it may go on.
 */
export function startInsideDecided(start: string, ctx: ToolCtx): ToolError | undefined {
  if (ctx.decidedRealPaths === undefined) return undefined
  const real = realPathOnDisk(start)
  const inside = (root: string) =>
    real !== undefined && (root === '/' || real === root || real.startsWith(`${root}/`))
  if (Object.values(ctx.decidedRealPaths).some(inside)) return undefined
  return {
    code: 'path_changed',
    message: `${start} leads to ${real ?? 'a path that cannot be resolved'} through a symlink, outside the folders this call was allowed to search. Nothing was listed; search ${real ?? 'the real folder'} by its own path so it is decided on.`,
  }
}
