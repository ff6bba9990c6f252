import { existsSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { gitConfigEntries, gitHooksFolder, prefetchGitHooksFolder } from '@z-engine/host'
import type { GitConfigEntry, PathFacts } from '@z-engine/policy'
import { realPathOnDisk } from '@z-engine/tools'
import { treeNamesOnDisk } from './tree-names.js'

/** The top folder of the git repository holding `dir` (a work tree with `.git`, or a bare repository). */
export function repositoryOnDisk(dir: string): string | undefined {
  let current = resolve(dir)
  for (;;) {
    if (existsSync(join(current, '.git'))) return current
    if (looksBare(current)) return current
    const parent = dirname(current)
    if (parent === current) return undefined
    current = parent
  }
}

/** What git itself checks before it takes a folder for a repository: HEAD, objects/ and refs/. */
function looksBare(dir: string): boolean {
  try {
    return (
      statSync(join(dir, 'HEAD')).isFile() &&
      statSync(join(dir, 'objects')).isDirectory() &&
      statSync(join(dir, 'refs')).isDirectory()
    )
  } catch {
    return false
  }
}

/** Per repository: the stamp of its config files and the entries git listed then. */
const GIT_CONFIG = new Map<string, { stamp: string; entries: readonly GitConfigEntry[] | undefined }>()

/** The stamp of the files a repository's own configuration lives in (changes when any does). */
function configStamp(top: string): string | undefined {
  const parts: string[] = []
  for (const file of ['.git', '.git/config', '.git/config.worktree']) {
    try {
      const info = statSync(join(top, file))
      // `.git` as a file (a linked worktree, a submodule) keeps its config elsewhere: not cached.
      if (file === '.git' && !info.isDirectory()) return undefined
      parts.push(`${info.mtimeMs}:${info.size}`)
    } catch {
      parts.push('-')
    }
  }
  return parts.join('|')
}

/**
 * The git configuration git would use in `dir` (every scope, includes followed), cached per
 * repository until one of its config files changes. An include's target is not watched: a
 * repository whose config includes anything is not proven read-only at all.
 */
export function gitConfigOnDisk(dir: string): readonly GitConfigEntry[] | undefined {
  const top = repositoryOnDisk(dir)
  const stamp = top === undefined ? undefined : configStamp(top)
  const key = top ?? dir
  const cached = stamp === undefined ? undefined : GIT_CONFIG.get(key)
  if (cached !== undefined && cached.stamp === stamp) return cached.entries
  const entries = gitConfigEntries(dir)
  if (stamp !== undefined) GIT_CONFIG.set(key, { stamp, entries })
  return entries
}

/**
 * Path facts for one permission decision, read from disk now (spec 001 permissions; issue 12):
 * real paths with symlinks resolved, the git hooks folder and repository lookups. Results are
 * memoized for the life of the returned object only, so build one per decision: a link swapped
 * later is caught again at open time by the file tools.
 */
export function pathFactsOnDisk(projectRoot: string): DiskPathFacts {
  // The hooks folder is looked up in the background from the first decision on (a read, usually),
  // so the first write finds it cached rather than waiting for a synchronous git (issue 17).
  void prefetchGitHooksFolder(projectRoot)
  const real = new Map<string, string | undefined>()
  let hooks: { folder: string | undefined } | undefined
  return {
    realPath(path: string): string | undefined {
      if (real.has(path)) return real.get(path)
      const resolved = realPathOnDisk(path)
      real.set(path, resolved)
      return resolved
    },
    // Asked only when a decision needs it (writes); usually cached by then by the prefetch above.
    get hooksPath(): string | undefined {
      hooks ??= { folder: gitHooksFolder(projectRoot) }
      return hooks.folder
    },
    repositoryOf: repositoryOnDisk,
    // Asked only when a line has a git command the table proves read-only.
    gitConfig: gitConfigOnDisk,
    // Asked only for a folder a copy or move names (`cp -r vendor out`), bounded.
    treeNames: treeNamesOnDisk,
    resolved(): Record<string, string> {
      const out: Record<string, string> = {}
      for (const [path, resolved] of real) if (resolved !== undefined) out[path] = resolved
      return out
    },
  }
}

/** Path facts read from disk, plus the real paths resolved so far (handed to the file tools). */
export interface DiskPathFacts extends PathFacts {
  /** Every path resolved during the decision → its real path (unresolvable ones left out). */
  resolved(): Record<string, string>
}
