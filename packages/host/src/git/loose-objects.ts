import { createHash, randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { link, mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { deflateSync } from 'node:zlib'
import { pathExists } from '../fs/path-exists.js'

// Writing a commit object and moving refs without starting git (issue 17): each git process costs
// the engine ~10 ms of CPU to spawn, more under load, and a turn's checkpoints ran two of them
// (`commit-tree`, `update-ref`) per snapshot. The formats are git's own and stable: a loose object
// is `<type> <size>\0<body>` deflated under `objects/<2 hex>/<38 hex>`, named by its SHA-1; a loose
// ref is a file holding the id, replaced through `<ref>.lock` (created exclusively, renamed over
// the ref), which is the same lock git takes, so a concurrent git process and this code exclude
// each other. Whatever this does not handle (SHA-256 repositories, refs only in `packed-refs`)
// reports `unsupported` and the caller runs git as before.

const SHA1 = /^[0-9a-f]{40}$/
const ZERO_ID = '0'.repeat(40)

/** The commit to write: like `git commit-tree <tree> [-p <parent>] -m <message>`. */
export interface LooseCommit {
  tree: string
  parent?: string
  message: string
  /** Author and committer, e.g. `z-engine <checkpoints@z-engine.invalid>`. */
  ident: string
  /** Seconds since the epoch (default now). */
  time?: number
}

/**
 * Writes a commit as a loose object in `gitDir` and returns its id, or undefined when the ids are
 * not SHA-1 (the caller then asks git). An object already present is left as it is.
 */
export async function writeLooseCommit(gitDir: string, commit: LooseCommit): Promise<string | undefined> {
  if (!SHA1.test(commit.tree) || (commit.parent !== undefined && !SHA1.test(commit.parent))) return undefined
  const when = `${commit.time ?? Math.floor(Date.now() / 1000)} +0000`
  const body =
    `tree ${commit.tree}\n` +
    (commit.parent !== undefined ? `parent ${commit.parent}\n` : '') +
    `author ${commit.ident} ${when}\ncommitter ${commit.ident} ${when}\n\n` +
    (commit.message.endsWith('\n') ? commit.message : `${commit.message}\n`)
  return writeLooseObject(gitDir, 'commit', Buffer.from(body, 'utf8'))
}

/** Stores one object (`type` `body`) loose in `gitDir`; returns its id. */
async function writeLooseObject(gitDir: string, type: string, body: Buffer): Promise<string> {
  const raw = Buffer.concat([Buffer.from(`${type} ${body.length}\0`, 'latin1'), body])
  const id = createHash('sha1').update(raw).digest('hex')
  const dir = join(gitDir, 'objects', id.slice(0, 2))
  const path = join(dir, id.slice(2))
  if (await pathExists(path)) return id
  await mkdir(dir, { recursive: true })
  // Written aside and linked into place, as git does: a reader never sees a partial object.
  const temp = join(dir, `tmp_obj_${randomBytes(6).toString('hex')}`)
  await writeFile(temp, deflateSync(raw), { mode: 0o444 })
  try {
    await link(temp, path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  } finally {
    await rm(temp, { force: true })
  }
  return id
}

/** One ref to move: to `to`, only if it now holds `from` (the zero id: does not exist) when given. */
export interface RefUpdate {
  ref: string
  to: string
  from?: string
}

/** How {@link updateLooseRefs} ended. */
export type RefUpdateResult =
  /** Every ref moved. */
  | 'updated'
  /** A ref did not hold its `from` value, or another process held its lock: nothing moved. */
  | 'conflict'
  /** Something this does not handle (see the file's comment): nothing moved; ask git. */
  | 'unsupported'

/**
 * Moves loose refs all or nothing, like `git update-ref --stdin` with `update <ref> <to> [<from>]`
 * lines: every lock is taken and every `from` checked before any ref is replaced. Refs that exist
 * only in `packed-refs` are `unsupported` (git resolves them), as are non-SHA-1 ids.
 */
export async function updateLooseRefs(
  gitDir: string,
  updates: readonly RefUpdate[],
): Promise<RefUpdateResult> {
  if (
    updates.some((update) => !SHA1.test(update.to) || (update.from !== undefined && !SHA1.test(update.from)))
  )
    return 'unsupported'
  const packed = await readFile(join(gitDir, 'packed-refs'), 'latin1').catch(() => '')
  const locks: { path: string; lock: string }[] = []
  try {
    for (const update of updates) {
      const path = join(gitDir, update.ref)
      const current = (await readFile(path, 'latin1').catch(() => undefined))?.trim()
      if (current === undefined && packed.includes(` ${update.ref}\n`)) return 'unsupported'
      if (current !== undefined && !SHA1.test(current)) return 'unsupported'
      if (update.from !== undefined && (current ?? ZERO_ID) !== update.from) return 'conflict'
      await mkdir(dirname(path), { recursive: true })
      const lock = `${path}.lock`
      let handle: Awaited<ReturnType<typeof open>>
      try {
        handle = await open(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return 'conflict'
        throw error
      }
      locks.push({ path, lock })
      try {
        await handle.writeFile(`${update.to}\n`)
      } finally {
        await handle.close()
      }
      // Checked again under the lock: a git process may have moved the ref before we took it.
      const locked = (await readFile(path, 'latin1').catch(() => undefined))?.trim()
      if (update.from !== undefined && (locked ?? ZERO_ID) !== update.from) return 'conflict'
    }
    for (const { path, lock } of locks.splice(0)) await rename(lock, path)
    return 'updated'
  } finally {
    for (const { lock } of locks) await rm(lock, { force: true })
  }
}
