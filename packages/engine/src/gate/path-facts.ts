import { existsSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { gitHooksFolder, prefetchGitHooksFolder } from '@z-engine/host'
import type { PathFacts } from '@z-engine/policy'
import { realPathOnDisk } from '@z-engine/tools'

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
