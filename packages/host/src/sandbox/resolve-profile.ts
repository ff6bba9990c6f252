import { lstat, readdir, readFile, readlink, realpath, stat } from 'node:fs/promises'
import { basename, delimiter, dirname, isAbsolute, join, resolve, sep } from 'node:path'
import { gitHooksFolder } from '../git/hooks-folder.js'
import type { BoundFile, ProfilePath, SandboxMode, SandboxProfile, SystemEntry } from './profile.js'
import {
  ETC_ENTRIES,
  GIT_CONTROL,
  HOOK_CONFIG_FILES,
  PROTECTED_IN_ROOT,
  SECRET_PATHS,
  SYSTEM_DIRS,
  TOOL_CONFIG_FILES,
  TOOLCHAIN_FILES,
  WORKTREE_GIT_CONTROL,
} from './tables.js'

/** What one confined command needs resolved against the disk. */
export interface ProfileRequest {
  mode: SandboxMode
  /** The agent's root: the project, or a worktree agent's worktree. */
  root: string
  additionalDirectories: readonly string[]
  home: string
  /** The session's private temp folder (exists). */
  tmpDir: string
  /** `[shell.sandbox] allow_network` (read-only commands never get the network). */
  allowNetwork: boolean
  /** `[shell.sandbox] read_paths`: shown read-only (`~/` is the home). */
  readPaths?: readonly string[]
  /** `[shell.sandbox] write_paths`: writable in write mode, read-only in read-only mode. */
  writePaths?: readonly string[]
  /** Paths masked inside the view: the engine's own folders, `Read(...)` deny rules' paths. */
  masked?: readonly string[]
  /** The environment the command gets: its PATH decides which tool folders are shown. */
  env: Readonly<Record<string, string | undefined>>
  /** A program's argv: its absolute paths are shown read-only (see {@link programFolders}). */
  programs?: readonly string[]
  /** Files the engine prepared, shown read-only at a path of the view (a `~/.gitconfig` with only the identity). */
  files?: readonly BoundFile[]
  /**
   * Protected files and folders below the top levels (`sub/.envrc`, a nested `.git`) found before
   * the command: bound read-only like the root's (write mode).
   */
  nested?: readonly ProfilePath[]
  /** The Node binary the engine runs on (its install prefix is shown; default: this process's). */
  execPath?: string
  /** Leave the root repository's `worktrees/` admin folder writable (a WorktreeCreate/WorktreeRemove hook). */
  manageWorktrees?: boolean
}

/**
 * Resolves a profile: real paths (a symlinked root or `/tmp` on macOS), the system folders and
 * `/etc` entries this machine has, the tool folders on PATH, which protected, toolchain and masked
 * paths exist, and where a worktree's git folder lives. Only reads the disk.
 */
export async function resolveProfile(request: ProfileRequest): Promise<SandboxProfile> {
  const tmpDir = await realOr(request.tmpDir)
  const home = await realOr(request.home)
  const system = await systemEntries()
  const etc = await etcEntries()
  const root = await realOr(request.root)
  const additional = await existingDirs(request.additionalDirectories)
  const readPaths = (await existing((request.readPaths ?? []).map((path) => expandHome(path, home)))).map(
    (entry) => entry.path,
  )
  const writePaths = await existingDirs((request.writePaths ?? []).map((path) => expandHome(path, home)))
  const tools = await toolFolders(request.env.PATH ?? '', request.execPath ?? process.execPath, home, [
    ...systemFolders(system),
    root,
    ...additional,
  ])
  tools.push(
    ...(await programFolders(request.programs ?? [], home, [...systemFolders(system), root, ...tools])),
  )
  const base = { system, etc, home, tmpDir, files: [...(request.files ?? [])] }
  if (request.mode === 'read-only') {
    // A worktree's git folders live outside it: read-only git needs them.
    const gitDirs = await worktreeGitDirs(root)
    const readable = unique([root, ...additional, ...readPaths, ...writePaths, ...tools, ...gitDirs])
    const hidden = await hiddenWithin(request, home, [...readable, tmpDir], [root, ...additional])
    return {
      mode: 'read-only',
      ...base,
      readable: outside(readable, hidden),
      writable: [tmpDir],
      readOnly: [],
      placeholders: [],
      pinned: [],
      hidden,
      removeAfter: [],
      network: false,
    }
  }
  const git = await gitProtection(root, request.home, request.env, request.manageWorktrees === true)
  // An additional directory's own repository and harness folders are protected as the root's are,
  // but only where they exist: nothing is created in a folder the user merely lent (issue 34).
  const lent = await Promise.all(additional.map((dir) => gitProtection(dir, request.home, request.env)))
  const writable = unique([
    root,
    ...additional,
    ...writePaths,
    ...git.writable,
    ...lent.flatMap((entry) => entry.writable),
    tmpDir,
  ])
  const readable = unique([...readPaths, ...tools]).filter((path) => !within(path, writable))
  const hidden = await hiddenWithin(request, home, [...readable, ...writable], [root, ...additional])
  const inRoot = (dir: string) =>
    PROTECTED_IN_ROOT.map((name): ProfilePath => ({ path: join(dir, name), kind: placeholderKind(name) }))
  const candidates: ProfilePath[] = [...inRoot(root), ...git.protect]
  const existingOnly = new Set(
    [...additional.flatMap(inRoot), ...lent.flatMap((entry) => entry.protect)].map((entry) => entry.path),
  )
  const readOnly: ProfilePath[] = []
  const placeholders: ProfilePath[] = []
  for (const candidate of uniqueBy([
    ...candidates,
    ...additional.flatMap(inRoot),
    ...lent.flatMap((entry) => entry.protect),
  ])) {
    const found = await kindOf(candidate.path)
    if (found !== undefined) {
      const real = await realOr(candidate.path)
      if (within(real, writable)) readOnly.push({ path: real, kind: found })
    } else if (within(candidate.path, writable) && !existingOnly.has(candidate.path)) {
      placeholders.push(candidate)
    }
  }
  const removeAfter: string[] = []
  // In the root and in every additional directory: a lent folder's next build obeys them too.
  const configNames = [...TOOLCHAIN_FILES, ...HOOK_CONFIG_FILES, ...TOOL_CONFIG_FILES]
  for (const path of [root, ...additional].flatMap((dir) => configNames.map((name) => join(dir, name)))) {
    const found = await kindOf(path)
    if (found === undefined) removeAfter.push(path)
    else {
      const real = await realOr(path)
      if (within(real, writable)) readOnly.push({ path: real, kind: found })
    }
  }
  for (const entry of request.nested ?? []) {
    const real = await realOr(entry.path)
    if (within(real, writable)) readOnly.push({ path: real, kind: entry.kind })
  }
  const pinned = await ancestorsBetween(
    writable,
    [...readOnly, ...placeholders].map((entry) => entry.path),
    [...git.pinned, ...lent.flatMap((entry) => entry.pinned)],
  )
  return {
    mode: 'write',
    ...base,
    readable: outside(readable, hidden),
    writable: outside(writable, hidden),
    readOnly,
    placeholders,
    pinned,
    hidden,
    removeAfter,
    network: request.allowNetwork,
  }
}

/** The system folders of {@link SYSTEM_DIRS} this machine has (symlinks kept as symlinks). */
async function systemEntries(): Promise<SystemEntry[]> {
  const entries: SystemEntry[] = []
  for (const path of SYSTEM_DIRS) {
    const info = await lstat(path).catch(() => undefined)
    if (info?.isSymbolicLink()) entries.push({ kind: 'symlink', path, target: await readlink(path) })
    else if (info?.isDirectory()) entries.push({ kind: 'dir', path })
  }
  return entries
}

/** The folders the system entries bind (symlinks point into them). */
function systemFolders(entries: readonly SystemEntry[]): string[] {
  return entries.filter((entry) => entry.kind === 'dir').map((entry) => entry.path)
}

/** The existing `/etc` entries of {@link ETC_ENTRIES} (symlinks kept as symlinks). */
async function etcEntries(): Promise<SystemEntry[]> {
  const names = await readdir('/etc').catch(() => [] as string[])
  const wanted = new Set<string>()
  for (const entry of ETC_ENTRIES) {
    if (entry.endsWith('*')) {
      const prefix = entry.slice(0, -1)
      for (const name of names) if (name.startsWith(prefix)) wanted.add(name)
    } else wanted.add(entry)
  }
  const entries: SystemEntry[] = []
  for (const name of [...wanted].sort()) {
    const path = `/etc/${name}`
    const info = await lstat(path).catch(() => undefined)
    if (info?.isSymbolicLink()) entries.push({ kind: 'symlink', path, target: await readlink(path) })
    else if (info) entries.push({ kind: 'dir', path })
  }
  return entries
}

/**
 * The folders on PATH (and the Node binary's) that are not already in the view, as install
 * prefixes: `/opt/node/bin` shows `/opt/node` (its `lib/node_modules` holds what `npm` links to),
 * `~/.nvm/versions/node/v20/bin` that version's folder. A folder directly in the home
 * (`~/.cargo/bin`, `~/.local/bin`) shows only itself: its parent holds credentials and history.
 * The home itself, its parents and `/` are never shown this way.
 */
async function toolFolders(
  path: string,
  execPath: string,
  home: string,
  visible: readonly string[],
): Promise<string[]> {
  const folders: string[] = []
  const candidates = [...path.split(delimiter).filter((dir) => isAbsolute(dir)), dirname(execPath)]
  for (const candidate of candidates) {
    const info = await stat(candidate).catch(() => undefined)
    if (!info?.isDirectory()) continue
    const real = await realOr(candidate)
    if (within(real, visible) || within(home, [real])) continue
    if (basename(real) === '.bin' && basename(dirname(real)) === 'node_modules') {
      // A package's `node_modules/.bin` links into its packages and, with pnpm, a store higher up.
      for (const folder of await packageFolders(real, real, home))
        if (!within(folder, [...visible, ...folders])) folders.push(folder)
      continue
    }
    const prefix = basename(real) === 'bin' ? dirname(real) : real
    const whole = within(home, [prefix]) || dirname(prefix) === home || prefix === dirname(prefix)
    // An install prefix shows only its install folders: a PATH entry such as `/srv/app/bin` or
    // `~/work/tools/bin` must not bring the rest of `/srv/app` or `~/work/tools` into the view.
    const shown = whole || prefix === real ? [real] : await installFolders(prefix)
    for (const folder of shown) if (!folders.some((other) => within(folder, [other]))) folders.push(folder)
  }
  return folders
}

/** The folders of an install prefix a program needs (`bin`, `lib`, `share`…): those that exist. */
const INSTALL_FOLDERS = ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libexec', 'share', 'include']

async function installFolders(prefix: string): Promise<string[]> {
  const found: string[] = []
  for (const name of INSTALL_FOLDERS)
    if ((await kindOf(join(prefix, name))) === 'dir') found.push(join(prefix, name))
  return found
}

/** Arguments that name a program to run (a script an interpreter is given). */
const SCRIPT = /\.(?:[cm]?[jt]s|py|rb|pl|php|sh|jar|lua)$/

/** Files that mark a package's folder (the folder a program's sibling modules live in). */
const PACKAGE_MARKERS = ['package.json', 'pyproject.toml', 'setup.py', 'Cargo.toml', 'go.mod', 'Gemfile']

/**
 * The folders that show a program the user configured (`node /opt/mcp/dist/index.js`): for the
 * program and each argument that is a script or an executable (not a data file such as a token)
 * that exists and is not in the view yet, the outermost `node_modules`
 * above it (pnpm links a package's dependencies across that tree), else the nearest folder with a
 * package marker, else its own folder. Never the home, a folder directly in it, its parents or `/`:
 * then only the file itself.
 */
async function programFolders(
  argv: readonly string[],
  home: string,
  visible: readonly string[],
): Promise<string[]> {
  const folders: string[] = []
  for (const [index, arg] of argv.entries()) {
    if (!isAbsolute(arg)) continue
    const info = await stat(arg).catch(() => undefined)
    if (!info) continue
    // The program itself, and arguments that are programs (scripts, executables) — not data files.
    const program = index === 0 || SCRIPT.test(arg) || (info.isFile() && (info.mode & 0o111) !== 0)
    if (!program) continue
    for (const path of unique([arg, await realOr(arg)])) {
      const start = info.isDirectory() ? path : dirname(path)
      for (const folder of await packageFolders(start, path, home))
        if (!within(folder, [...visible, ...folders])) folders.push(folder)
    }
  }
  return folders
}

/**
 * The folders that hold a program at `path` (starting from its folder `start`): the outermost
 * `node_modules` above it (pnpm links a package's dependencies across that tree), else the nearest
 * folder with a package marker, else its own folder; plus a pnpm workspace's `node_modules` higher
 * up (where the `.pnpm` store every package links into lives). Never the home, a folder directly in
 * it, its parents or `/`: then only the path itself.
 */
async function packageFolders(start: string, path: string, home: string): Promise<string[]> {
  const parts = start.split(sep)
  const modules = parts.indexOf('node_modules')
  let folder = modules > 0 ? parts.slice(0, modules + 1).join(sep) : undefined
  for (let dir = start; folder === undefined && dir !== dirname(dir); dir = dirname(dir)) {
    if (within(home, [dir])) break
    for (const marker of PACKAGE_MARKERS)
      if (await kindOf(join(dir, marker))) {
        folder = dir
        break
      }
  }
  folder ??= start
  const unsafe = (dir: string) => within(home, [dir]) || dirname(dir) === home || dir === dirname(dir)
  const folders = [unsafe(folder) ? path : folder]
  for (let dir = dirname(folder); dir !== dirname(dir) && !within(home, [dir]); dir = dirname(dir)) {
    if ((await kindOf(join(dir, 'node_modules', '.pnpm'))) === 'dir') {
      const store = join(dir, 'node_modules')
      if (!unsafe(dir) || dirname(store) !== home) folders.push(store)
      break
    }
  }
  return folders
}

/**
 * What to mask: the secrets of {@link SECRET_PATHS} and the requested paths that exist and lie
 * inside a folder of the view (elsewhere they are not in the view at all). A mask that would cover
 * the agent's own folders (a project kept inside the engine's data folder) is left out.
 */
async function hiddenWithin(
  request: ProfileRequest,
  home: string,
  visible: readonly string[],
  own: readonly string[],
): Promise<ProfilePath[]> {
  const found = await existing([
    ...SECRET_PATHS.map((path) => expandHome(path, home)),
    ...(request.masked ?? []),
  ])
  return found.filter(
    (entry, index) =>
      within(entry.path, visible) &&
      !own.some((folder) => within(folder, [entry.path])) &&
      found.findIndex((other) => other.path === entry.path) === index,
  )
}

/** The folders not inside a masked one (a mask wins over a bind below it). */
function outside(folders: readonly string[], hidden: readonly ProfilePath[]): string[] {
  const masked = hidden.map((entry) => entry.path)
  return folders.filter((folder) => !within(folder, masked))
}

/** Root names that are files (`.mcp.json`) get an empty file as a placeholder; the rest a folder. */
function placeholderKind(name: string): 'dir' | 'file' {
  return name.endsWith('.json') ? 'file' : 'dir'
}

/**
 * The folders to keep as their own mounts: `pinned`, plus every existing folder strictly between
 * a writable root and a protected path inside it. A mount moves with a folder renamed above it, so
 * without this `mv tools t2 && mkdir -p tools/hooks` would swap a protected `tools/hooks` away.
 */
async function ancestorsBetween(
  writable: readonly string[],
  protectedPaths: readonly string[],
  pinned: readonly string[],
): Promise<string[]> {
  const folders = [...pinned]
  for (const path of protectedPaths) {
    const top = writable.filter((folder) => within(path, [folder])).sort((a, b) => b.length - a.length)[0]
    if (top === undefined) continue
    for (let dir = dirname(path); dir !== top && within(dir, [top]); dir = dirname(dir))
      if ((await kindOf(dir)) === 'dir') folders.push(await realOr(dir))
  }
  return unique(folders)
}

/** The paths of `entries`, each once (the first entry for a path wins). */
function uniqueBy(entries: readonly ProfilePath[]): ProfilePath[] {
  const seen = new Set<string>()
  return entries.filter((entry) => !seen.has(entry.path) && seen.add(entry.path) !== undefined)
}

/**
 * The git paths to keep read-only ({@link GIT_CONTROL} in the common git folder). In a worktree
 * `.git` is a file naming the real git folder elsewhere: that file stays read-only (re-pointing it
 * would swap in other hooks), and so does what points its admin folder elsewhere
 * ({@link WORKTREE_GIT_CONTROL}); the worktree's and the common git folder stay writable (commits
 * need objects and refs). A `core.hooksPath` inside the root is protected too.
 */
async function gitProtection(
  root: string,
  home: string,
  env: Readonly<Record<string, string | undefined>>,
  manageWorktrees = false,
): Promise<{ protect: ProfilePath[]; writable: string[]; pinned: string[] }> {
  const dotGit = join(root, '.git')
  const kind = await kindOf(dotGit)
  // No repository: a confined command may not make one (`git init`, then hooks the user's next
  // `git commit` runs). A `.git` file naming no folder makes git stop with this text instead.
  if (kind === undefined)
    return { protect: [{ path: dotGit, kind: 'file', seed: NO_REPOSITORY_SEED }], writable: [], pinned: [] }
  let common = dotGit
  const writable: string[] = []
  const protect: ProfilePath[] = []
  if (kind === 'file') {
    const gitDir = await readGitDir(dotGit, root)
    if (gitDir === undefined) return { protect: [{ path: dotGit, kind: 'file' }], writable: [], pinned: [] }
    const commonDir = await readFile(join(gitDir, 'commondir'), 'utf8').then(
      (text) => resolve(gitDir, text.trim()),
      () => gitDir,
    )
    common = await realOr(commonDir)
    writable.push(await realOr(gitDir), common)
    protect.push({ path: dotGit, kind: 'file' })
    if (gitDir !== common)
      protect.push(
        ...WORKTREE_GIT_CONTROL.map(({ name, ...entry }) => ({ ...entry, path: join(gitDir, name) })),
      )
  }
  const control = manageWorktrees ? GIT_CONTROL.filter(({ name }) => name !== 'worktrees') : GIT_CONTROL
  protect.push(...control.map(({ name, ...entry }) => ({ ...entry, path: join(common, name) })))
  // The folder git runs hooks from (core.hooksPath at any level): protected when it is elsewhere.
  const hooksPath = gitHooksFolder(root, { env, home })
  if (hooksPath !== undefined && (await realOr(hooksPath)) !== (await realOr(join(common, 'hooks'))))
    protect.push({ path: hooksPath, kind: 'dir' })
  return { protect, writable, pinned: [common] }
}

/**
 * What the placeholder `.git` of a folder without a repository says: git reads it as a gitfile and
 * stops with `fatal: not a git repository: /z-engine/…`, which tells the user what to do.
 */
export const NO_REPOSITORY_SEED =
  'gitdir: /z-engine/no repository can be created here while Z Engine runs a confined command or server (git init once it ends, or approve it with [shell.sandbox] off)\n'

/** A worktree's own git folder and the common one (its `.git` is a file naming them); else none. */
async function worktreeGitDirs(root: string): Promise<string[]> {
  const dotGit = join(root, '.git')
  if ((await kindOf(dotGit)) !== 'file') return []
  const gitDir = await readGitDir(dotGit, root)
  if (gitDir === undefined) return []
  const common = await readFile(join(gitDir, 'commondir'), 'utf8').then(
    (text) => realOr(resolve(gitDir, text.trim())),
    () => gitDir,
  )
  return unique([gitDir, common])
}

async function readGitDir(dotGit: string, root: string): Promise<string | undefined> {
  const text = await readFile(dotGit, 'utf8').catch(() => '')
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text)
  return match?.[1] ? realOr(resolve(root, match[1])) : undefined
}

function expandHome(path: string, home: string): string {
  return path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path
}

async function kindOf(path: string): Promise<'dir' | 'file' | undefined> {
  const info = await stat(path).catch(() => undefined)
  if (!info) return (await lstat(path).catch(() => undefined)) ? 'file' : undefined
  return info.isDirectory() ? 'dir' : 'file'
}

async function realOr(path: string): Promise<string> {
  return realpath(path).catch(() => resolve(path))
}

async function existing(paths: readonly string[]): Promise<ProfilePath[]> {
  const found: ProfilePath[] = []
  for (const path of paths) {
    const kind = await kindOf(path)
    if (kind !== undefined) found.push({ path: await realOr(path), kind })
  }
  return found
}

async function existingDirs(paths: readonly string[]): Promise<string[]> {
  const found = await existing(paths)
  return found.filter((entry) => entry.kind === 'dir').map((entry) => entry.path)
}

/** Whether `path` is one of `folders` or below one. */
export function within(path: string, folders: readonly string[]): boolean {
  return folders.some(
    (folder) => path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep),
  )
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)]
}
