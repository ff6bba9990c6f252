import { lstat, readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { HOOK_CONFIG_FILE_NAMES, TOOL_CONFIG_FILE_NAMES, TOOLCHAIN_FILE_NAMES } from '@z-engine/protocol'
import { projectGit } from '../git/project-git.js'
import type { ProfilePath } from './profile.js'

/** Files a tool obeys in the folder it runs in, at any depth: the policy's lists (issue 34). */
const FILE_NAMES: ReadonlySet<string> = new Set([
  ...TOOLCHAIN_FILE_NAMES,
  ...HOOK_CONFIG_FILE_NAMES,
  ...TOOL_CONFIG_FILE_NAMES,
])

/**
 * Folders protected whole at any depth: a nested repository's git folder, hook scripts, harness
 * settings, editors' task files, cargo's and mise's configuration.
 */
const FOLDER_NAMES: ReadonlySet<string> = new Set([
  '.git',
  '.husky',
  '.claude',
  '.z-engine',
  '.vscode',
  '.idea',
  '.run',
  '.zed',
  '.helix',
  '.devcontainer',
  '.cargo',
  '.mise',
])

/** How many entries a walk reads before it stops (a folder git does not list, or no repository). */
const WALK_LIMIT = 20_000

/** The protected paths below a root's top level, and the folders git ignores (not listed inside). */
export interface NestedScan {
  root: string
  /** Relative path → kind: what exists now. */
  paths: Map<string, 'dir' | 'file'>
  /** Ignored folders git listed whole (relative, with a trailing slash); undefined without git. */
  ignoredDirs: Set<string> | undefined
}

/**
 * Finds the protected files and folders below `root`'s top level (the top level is the profile's):
 * from git's index and untracked listing when `root` is a repository — ignored folders listed whole,
 * and walked only when `before` did not know them (made during the command) — else by a bounded
 * walk. Reads only: git through the hardened runner.
 */
export async function scanNested(root: string, before?: NestedScan): Promise<NestedScan> {
  const paths = new Map<string, 'dir' | 'file'>()
  const isRepo = (await stat(join(root, '.git')).catch(() => undefined)) !== undefined
  const listed = isRepo ? await gitEntries(root) : undefined
  if (listed === undefined) {
    await walk(root, '', paths, { left: WALK_LIMIT })
    return { root, paths, ignoredDirs: undefined }
  }
  for (const entry of listed.entries) await classify(root, entry, paths)
  const budget = { left: WALK_LIMIT }
  for (const entry of listed.ignored) {
    if (!entry.endsWith('/')) {
      await classify(root, entry, paths)
      continue
    }
    await classify(root, entry, paths)
    // A folder git ignores (a new `build/`) still holds files tools obey: walked when it is new.
    if (before !== undefined && before.ignoredDirs?.has(entry) !== true)
      await walk(root, entry.slice(0, -1), paths, budget)
  }
  return { root, paths, ignoredDirs: new Set(listed.ignored.filter((entry) => entry.endsWith('/'))) }
}

/** The protected paths of `scan`, absolute, for the profile to bind read-only. */
export function nestedPaths(scan: NestedScan): ProfilePath[] {
  return [...scan.paths].map(([path, kind]) => ({ path: join(scan.root, path), kind }))
}

/**
 * Removes what a write-confined command created below the top level that `before` did not hold
 * (a `sub/.envrc`, `crates/x/rust-toolchain.toml`, a nested repository's `.git`), changed since
 * `since`. A nested `.git` goes whole: its hooks and config would run on the user's next git
 * command there, and the files it tracks stay. Returns the relative paths removed.
 */
export async function removeNewNested(before: NestedScan, since: number): Promise<string[]> {
  const after = await scanNested(before.root, before)
  const removed: string[] = []
  for (const path of after.paths.keys()) {
    if (before.paths.has(path)) continue
    const absolute = join(before.root, path)
    const info = await lstat(absolute).catch(() => undefined)
    if (info === undefined || Math.max(info.ctimeMs, info.mtimeMs, info.birthtimeMs) < since) continue
    await rm(absolute, { recursive: true, force: true }).catch(() => {})
    removed.push(path)
  }
  return removed
}

/** The notice a removal gets, so the model can tell the user what happened and why. */
export function removalNotice(paths: readonly string[]): string {
  return [
    `z-engine: removed ${paths.join(', ')}: a confined command may not create files that the user's own tools obey later (toolchain, direnv, package-manager, hook-manager, editor configuration or a nested git repository).`,
    'Ask the user to create it themselves if it is wanted.',
  ].join(' ')
}

/** Tracked and untracked entries (nested repositories as `sub/`), and ignored ones listed whole. */
async function gitEntries(root: string): Promise<{ entries: string[]; ignored: string[] } | undefined> {
  const [entries, ignored] = await Promise.all([
    projectGit(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      timeoutMs: 60_000,
    }),
    projectGit(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], {
      cwd: root,
      timeoutMs: 60_000,
    }),
  ])
  if (!entries.ok || !ignored.ok) return undefined
  const split = (text: string) => text.split('\0').filter((entry) => entry !== '')
  return { entries: split(entries.stdout), ignored: split(ignored.stdout) }
}

/** Adds what a listed entry makes protected: its own name, a protected folder above it, a nested `.git`. */
async function classify(root: string, entry: string, paths: Map<string, 'dir' | 'file'>): Promise<void> {
  const folder = entry.endsWith('/')
  const segments = (folder ? entry.slice(0, -1) : entry).split('/')
  const folders = folder ? segments.length : segments.length - 1
  for (let index = 0; index < folders; index++) {
    if (!FOLDER_NAMES.has(segments[index] ?? '')) continue
    if (index > 0) paths.set(segments.slice(0, index + 1).join('/'), 'dir')
    return
  }
  if (folder) {
    // git lists a repository inside the work tree as `sub/` and does not enter it.
    const dotGit = `${entry}.git`
    const info = await lstat(join(root, dotGit)).catch(() => undefined)
    if (info !== undefined) paths.set(dotGit, info.isDirectory() ? 'dir' : 'file')
    return
  }
  if (segments.length > 1 && FILE_NAMES.has(segments.at(-1) ?? ''))
    paths.set(entry, (await lstat(join(root, entry)).catch(() => undefined))?.isDirectory() ? 'dir' : 'file')
}

/** Walks `relative` under `root` (not entering protected folders) until the budget is spent. */
async function walk(
  root: string,
  relative: string,
  paths: Map<string, 'dir' | 'file'>,
  budget: { left: number },
): Promise<void> {
  const queue = [relative]
  while (queue.length > 0 && budget.left > 0) {
    const dir = queue.shift() ?? ''
    const entries = await readdir(join(root, dir), { withFileTypes: true }).catch(() => [])
    budget.left -= entries.length
    for (const entry of entries) {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`
      const nested = dir !== ''
      if (entry.isDirectory() && FOLDER_NAMES.has(entry.name)) {
        if (nested) paths.set(path, 'dir')
      } else if (FILE_NAMES.has(entry.name)) {
        if (nested) paths.set(path, entry.isDirectory() ? 'dir' : 'file')
      } else if (entry.isDirectory()) queue.push(path)
    }
  }
}
