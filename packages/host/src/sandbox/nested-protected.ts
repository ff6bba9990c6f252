import { lstat, readdir, readFile, rm, stat } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
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

/** The protected paths below a root's top level, and the folders git lists whole. */
export interface NestedScan {
  root: string
  /** Relative path → kind: what exists now. */
  paths: Map<string, 'dir' | 'file'>
  /** Folders git listed whole: ignored ones, nested repositories (relative, trailing slash); undefined without git. */
  wholeDirs: Set<string> | undefined
}

/**
 * Finds the protected files and folders below `root`'s top level (the top level is the profile's).
 * In a repository: the index's and the untracked paths (a nested repository as `sub/`), and the
 * ignored ones with each ignored folder listed whole (`node_modules/`), walked only when `before`
 * did not list it (made during the command). Without git: a bounded walk. Reads only: git
 * through the hardened runner.
 */
export async function scanNested(root: string, before?: NestedScan): Promise<NestedScan> {
  const paths = new Map<string, 'dir' | 'file'>()
  const isRepo = (await stat(join(root, '.git')).catch(() => undefined)) !== undefined
  const listed = isRepo ? await gitEntries(root) : undefined
  if (listed === undefined) {
    await walk(root, '', paths, { left: WALK_LIMIT })
    return { root, paths, wholeDirs: undefined }
  }
  const wholeDirs = new Set<string>()
  const budget = { left: WALK_LIMIT }
  for (const entry of listed) {
    if (!entry.endsWith('/')) {
      classifyFile(entry, paths)
      continue
    }
    wholeDirs.add(entry)
    if (classifyFolder(entry, paths)) continue
    // git lists a repository inside the work tree as `sub/` and does not enter it.
    const dotGit = `${entry}.git`
    const info = await lstat(join(root, dotGit)).catch(() => undefined)
    if (info !== undefined) paths.set(dotGit, info.isDirectory() ? 'dir' : 'file')
    // A folder git does not enter (a new `build/`, ignored or not) still holds files tools obey.
    if (before !== undefined && before.wholeDirs?.has(entry) !== true)
      await walk(root, entry.slice(0, -1), paths, budget)
  }
  return { root, paths, wholeDirs }
}

/** The protected paths of `scan`, absolute, for the profile to bind read-only. */
export function nestedPaths(scan: NestedScan): ProfilePath[] {
  return [...scan.paths].map(([path, kind]) => ({ path: join(scan.root, path), kind }))
}

/**
 * `paths` without the `.git` files of the repository's own linked worktrees: a WorktreeCreate or
 * WorktreeRemove hook (`manageWorktrees`) must be able to remove a worktree it made.
 */
export async function withoutLinkedWorktrees(root: string, paths: ProfilePath[]): Promise<ProfilePath[]> {
  const linked = await Promise.all(
    paths.map((entry) => (entry.kind === 'file' ? isLinkedWorktreeOf(root, entry.path) : false)),
  )
  return paths.filter((_entry, index) => !linked[index])
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
    if (info.isFile() && (await isLinkedWorktreeOf(before.root, absolute))) continue
    await rm(absolute, { recursive: true, force: true }).catch(() => {})
    removed.push(path)
  }
  return removed
}

/**
 * Whether a new `.git` file makes a linked worktree of the repository at `root` (`git worktree add`,
 * which only a WorktreeCreate hook may run confined): its `gitdir:` names an admin folder under
 * `root/.git/worktrees/`, so its hooks and config are the repository's own, not a nested one's.
 */
async function isLinkedWorktreeOf(root: string, dotGit: string): Promise<boolean> {
  if (!dotGit.endsWith(`${sep}.git`)) return false
  const text = await readFile(dotGit, 'utf8').catch(() => '')
  const gitdir = /^gitdir: (.+)$/m.exec(text)?.[1]?.trim()
  if (gitdir === undefined) return false
  const admin = resolve(dirname(dotGit), gitdir)
  const worktrees = join(root, '.git', 'worktrees') + sep
  return admin.startsWith(worktrees) && (await stat(admin).catch(() => undefined))?.isDirectory() === true
}

/** The notice a removal gets, so the model can tell the user what happened and why. */
export function removalNotice(paths: readonly string[]): string {
  return [
    `z-engine: removed ${paths.join(', ')}: a confined command may not create files that the user's own tools obey later (toolchain, direnv, package-manager, hook-manager, editor configuration or a nested git repository).`,
    'Ask the user to create it themselves if it is wanted.',
  ].join(' ')
}

/**
 * The index's and the untracked paths (git enters untracked folders, and lists a nested repository
 * as `sub/`), then the ignored ones with each ignored folder listed whole (never entering
 * `node_modules/`).
 */
async function gitEntries(root: string): Promise<string[] | undefined> {
  const list = (args: string[]) => projectGit(['ls-files', '-z', ...args], { cwd: root, timeoutMs: 60_000 })
  const [tracked, ignored] = await Promise.all([
    list(['--cached', '--others', '--exclude-standard']),
    list(['--others', '--ignored', '--exclude-standard', '--directory']),
  ])
  if (!tracked.ok || !ignored.ok) return undefined
  return `${tracked.stdout}\0${ignored.stdout}`.split('\0').filter((entry) => entry !== '')
}

/** Adds a file entry's protected folder (below the top level) or its own protected name. */
function classifyFile(entry: string, paths: Map<string, 'dir' | 'file'>): void {
  const segments = entry.split('/')
  if (segments.length < 2) return
  if (classifyFolder(entry, paths)) return
  if (FILE_NAMES.has(segments[segments.length - 1] ?? '')) paths.set(entry, 'file')
}

/**
 * Adds the first protected folder among an entry's folders (below the top level); true when one
 * is on the way (the top level's counts: the profile protects it whole).
 */
function classifyFolder(entry: string, paths: Map<string, 'dir' | 'file'>): boolean {
  const folder = entry.endsWith('/')
  const segments = (folder ? entry.slice(0, -1) : entry).split('/')
  const folders = folder ? segments.length : segments.length - 1
  for (let index = 0; index < folders; index++) {
    if (!FOLDER_NAMES.has(segments[index] ?? '')) continue
    if (index > 0) paths.set(segments.slice(0, index + 1).join('/'), 'dir')
    return true
  }
  return false
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
