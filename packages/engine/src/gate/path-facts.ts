import { execFileSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import type { PathFacts } from '@z-engine/policy'
import { realPathOnDisk } from '@z-engine/tools'

/**
 * The hooks folder git runs for the repository at `root` (`core.hooksPath` from any config level,
 * else `.git/hooks`), absolute; undefined outside a repository or without git.
 */
export function gitHooksFolder(root: string): string | undefined {
  try {
    const out = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-path', 'hooks'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5_000,
      // rev-parse reads config only; it runs no fsmonitor, pager or hook.
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
    }).trim()
    return out === '' ? undefined : out
  } catch {
    return undefined
  }
}

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

/** The hooks folder per project, re-read when the repository's config file changes. */
const HOOKS = new Map<string, { stamp: string; folder: string | undefined }>()

function hooksFolderOf(root: string): string | undefined {
  let stamp = 'none'
  try {
    const info = statSync(join(root, '.git', 'config'))
    stamp = `${info.mtimeMs}:${info.size}`
  } catch {
    // No .git/config (no repository, or a worktree's .git file): keyed as such.
  }
  const cached = HOOKS.get(root)
  if (cached?.stamp === stamp) return cached.folder
  const folder = gitHooksFolder(root)
  HOOKS.set(root, { stamp, folder })
  return folder
}

/**
 * Path facts for one permission decision, read from disk now (spec 001 permissions; issue 12):
 * real paths with symlinks resolved, the git hooks folder and repository lookups. Results are
 * memoized for the life of the returned object only, so build one per decision: a link swapped
 * later is caught again at open time by the file tools.
 */
export function pathFactsOnDisk(projectRoot: string): DiskPathFacts {
  const real = new Map<string, string | undefined>()
  let hooks: { folder: string | undefined } | undefined
  return {
    realPath(path: string): string | undefined {
      if (real.has(path)) return real.get(path)
      const resolved = realPathOnDisk(path)
      real.set(path, resolved)
      return resolved
    },
    // Read only when a decision asks (writes): reads and shell lines never pay for git.
    get hooksPath(): string | undefined {
      hooks ??= { folder: hooksFolderOf(projectRoot) }
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
