import { createHash } from 'node:crypto'
import { lstat, readdir, readFile, readlink } from 'node:fs/promises'
import { join } from 'node:path'
import { projectGit } from '@z-engine/host'

/** A file's identity when it was last hashed; an unchanged stat means an unchanged hash. */
interface Seen {
  mtimeMs: number
  size: number
  ino: number
  hash: string
}

// Never part of the tree a check proves, in or out of git.
const ALWAYS_SKIPPED = new Set(['.git', '.hg', '.svn', 'node_modules', '.z-engine'])
const HASH_CONCURRENCY = 32

/**
 * The workspace fingerprint of spec 000 "Verification": a content hash of the tracked and untracked
 * (not ignored) files, from `git ls-files` in a repository and a walk elsewhere. Each file is hashed
 * again only when its size, mtime or inode changed, so a fingerprint of an unchanged tree costs one
 * listing and one `lstat` per file.
 */
export class WorkspaceFingerprint {
  readonly #root: string
  readonly #env: Readonly<Record<string, string>>
  readonly #seen = new Map<string, Seen>()

  constructor(root: string, env: Readonly<Record<string, string>>) {
    this.#root = root
    this.#env = env
  }

  /** The fingerprint of the tree now (`sha256:` and hex). */
  async compute(): Promise<string> {
    const files = (await this.#gitFiles()) ?? (await this.#walk())
    files.sort()
    const digest = createHash('sha256')
    const hashes = new Array<string>(files.length)
    for (let start = 0; start < files.length; start += HASH_CONCURRENCY) {
      const slice = files.slice(start, start + HASH_CONCURRENCY)
      const done = await Promise.all(slice.map((file) => this.#hashOf(file)))
      for (let index = 0; index < done.length; index++) hashes[start + index] = done[index]!
    }
    for (let index = 0; index < files.length; index++) digest.update(`${files[index]}\0${hashes[index]}\n`)
    return `sha256:${digest.digest('hex')}`
  }

  async #hashOf(file: string): Promise<string> {
    const path = join(this.#root, file)
    const info = await lstat(path).catch(() => undefined)
    if (info === undefined) {
      this.#seen.delete(file)
      return 'missing'
    }
    const seen = this.#seen.get(file)
    if (seen && seen.mtimeMs === info.mtimeMs && seen.size === info.size && seen.ino === info.ino)
      return seen.hash
    let hash: string
    if (info.isSymbolicLink()) hash = `link:${await readlink(path).catch(() => '')}`
    else if (info.isFile()) {
      const bytes = await readFile(path).catch(() => undefined)
      hash = bytes === undefined ? 'unreadable' : createHash('sha256').update(bytes).digest('hex')
    } else hash = 'other'
    this.#seen.set(file, { mtimeMs: info.mtimeMs, size: info.size, ino: info.ino, hash })
    return hash
  }

  /**
   * Tracked and untracked files git does not ignore; undefined outside a repository. Through the
   * hardened runner: `ls-files` runs the repository's `core.fsmonitor` otherwise (issue 34).
   */
  async #gitFiles(): Promise<string[] | undefined> {
    const result = await projectGit(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: this.#root,
      env: this.#env,
      // No time limit, as before: a huge tree lists slowly, and nothing else waits on git here.
      timeoutMs: 0,
      maxBuffer: 256 * 1024 * 1024,
    })
    if (!result.ok) return undefined
    const files = result.stdout.split('\0').filter((file) => file !== '')
    // A file both tracked and listed again (merge stages) counts once; skipped folders never.
    return [...new Set(files)].filter((file) => !ALWAYS_SKIPPED.has(file.split('/')[0] ?? ''))
  }

  /** Every file under the root but VCS folders, dependency trees and the engine's own folder. */
  async #walk(): Promise<string[]> {
    const files: string[] = []
    const pending = ['']
    while (pending.length > 0) {
      const folder = pending.pop()!
      const entries = await readdir(join(this.#root, folder), { withFileTypes: true }).catch(() => [])
      for (const entry of entries) {
        if (ALWAYS_SKIPPED.has(entry.name)) continue
        const relative = folder === '' ? entry.name : `${folder}/${entry.name}`
        if (entry.isDirectory()) pending.push(relative)
        else files.push(relative)
      }
    }
    return files
  }
}
