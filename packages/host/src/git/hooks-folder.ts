import { readFileSync, statSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { projectGit, projectGitSync } from './project-git.js'

/** Where to look: the environment git reads its global config with, and the home `~` means. */
export interface HooksFolderOptions {
  /** Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>
  /** For `~` in a `core.hooksPath` read without git; default `env.HOME`. */
  home?: string
}

/** Per root and home, re-read when the repository's config file changes. */
const CACHE = new Map<string, { stamp: string; folder: string | undefined }>()
/** Background lookups running, by the same key. */
const PREFETCHING = new Map<string, Promise<void>>()

/**
 * The hooks folder git runs for the repository holding `root`, absolute: what
 * `git rev-parse --git-path hooks` says (`core.hooksPath` from any config level, else the git
 * folder's `hooks`). When git cannot answer (not installed, a `.git` it does not accept), the
 * `core.hooksPath` written in `root/.git/config` still counts, so a broken repository cannot hide
 * the hooks folder it names. Undefined when neither finds one. The permission gate and the sandbox
 * profile both protect this folder; the answer is cached until `.git/config` changes.
 */
export function gitHooksFolder(root: string, options: HooksFolderOptions = {}): string | undefined {
  const env = options.env ?? process.env
  const home = options.home ?? env.HOME ?? ''
  const key = `${root}\0${home}`
  const stamp = configStamp(root)
  const cached = CACHE.get(key)
  if (cached?.stamp === stamp) return cached.folder
  const folder = askGit(root, env) ?? configuredHooksPath(root, home)
  CACHE.set(key, { stamp, folder })
  return folder
}

/**
 * Starts {@link gitHooksFolder}'s lookup in the background (git runs without blocking this thread),
 * so the first write decision finds the answer cached instead of waiting for a synchronous git
 * process (issue 17). Does nothing when the answer is cached or already being looked up. If the
 * config changes meanwhile, the answer is not kept and `gitHooksFolder` asks again.
 */
export function prefetchGitHooksFolder(root: string, options: HooksFolderOptions = {}): Promise<void> {
  const env = options.env ?? process.env
  const home = options.home ?? env.HOME ?? ''
  const key = `${root}\0${home}`
  const stamp = configStamp(root)
  if (CACHE.get(key)?.stamp === stamp) return Promise.resolve()
  const running = PREFETCHING.get(key)
  if (running) return running
  const lookup = new Promise<void>((done) => {
    void projectGit(HOOKS_ARGS, gitOptions(root, env)).then((result) => {
      const asked = result.ok ? result.stdout.trim() || undefined : undefined
      if (configStamp(root) === stamp)
        CACHE.set(key, { stamp, folder: asked ?? configuredHooksPath(root, home) })
      done()
    })
  }).finally(() => PREFETCHING.delete(key))
  PREFETCHING.set(key, lookup)
  return lookup
}

const HOOKS_ARGS = ['rev-parse', '--path-format=absolute', '--git-path', 'hooks']

function gitOptions(root: string, env: Readonly<Record<string, string | undefined>>) {
  // Hardened like every git call of ours, but `core.hooksPath` is what this asks for (rev-parse
  // reads it, runs nothing).
  return { cwd: root, env, kept: ['core.hooksPath'] }
}

function configStamp(root: string): string {
  try {
    const info = statSync(join(root, '.git', 'config'))
    return `${info.mtimeMs}:${info.size}`
  } catch {
    // No .git/config (no repository, or a worktree's .git file): keyed as such.
    return 'none'
  }
}

function askGit(root: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const result = projectGitSync(HOOKS_ARGS, gitOptions(root, env))
  const out = result.ok ? result.stdout.trim() : ''
  return out === '' ? undefined : out
}

/** `core.hooksPath` as written in `root/.git/config` (relative to the root; `~` is the home). */
function configuredHooksPath(root: string, home: string): string | undefined {
  let text: string
  try {
    text = readFileSync(join(root, '.git', 'config'), 'utf8')
  } catch {
    return undefined
  }
  const match = /^\s*hookspath\s*=\s*"?([^"\n]+?)"?\s*$/im.exec(text)
  if (!match?.[1]) return undefined
  const value = match[1] === '~' ? home : match[1].startsWith('~/') ? join(home, match[1].slice(2)) : match[1]
  return isAbsolute(value) ? value : resolve(root, value)
}
