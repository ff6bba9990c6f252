import { lstatSync, readdirSync, readFileSync } from 'node:fs'
import { lstat, mkdtemp, realpath, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import type { CommandWrapper } from '../process/shell.js'
import { planBubblewrap } from './bwrap-plan.js'
import type { SandboxBackend } from './detect.js'
import { unstageEmbeddedRepositories } from './embedded-repositories.js'
import {
  type NestedScan,
  nestedPaths,
  removalNotice,
  removeNewNested,
  scanNested,
  withoutLinkedWorktrees,
} from './nested-protected.js'
import type { BoundFile, ProfilePath, SandboxMode, SandboxProfile } from './profile.js'
import { resolveProfile, within } from './resolve-profile.js'
import { planSeatbelt } from './seatbelt-plan.js'
import { unixSocketFilter } from './seccomp-filter.js'
import { prepareViewFiles } from './view-files.js'

/** One command to confine: the agent's root and folders, and the mode its permission relied on. */
export interface SandboxRequest {
  /** The agent's root: the project, or a worktree agent's worktree. */
  root: string
  additionalDirectories: readonly string[]
  /**
   * Paths masked inside the view (an empty folder or file over them): what `Read(...)` deny rules
   * name, resolved by the caller. Masks of the engine's own folders come from the sandbox itself.
   */
  masked?: readonly string[]
  /**
   * A program's argv whose absolute paths are shown read-only (a server the user configured as
   * `node /opt/tools/server.js`): each file's package folder, never the home or its parents.
   */
  programs?: readonly string[]
  /**
   * Folders or files shown read-only beside `read_paths` (a plugin's folder for its hooks); secrets
   * under them stay masked. The home itself, a parent of it and `/` are never shown this way.
   */
  readable?: readonly string[]
  /** Overrides `allow_network` for a `write`-mode start (an MCP server that talks to its service). */
  network?: boolean
  /**
   * The confinement the permission decision relied on (the policy auto-allowed the command because
   * it will run confined). Absent: the user approved it, and `[shell.sandbox] enabled` decides.
   */
  granted?: SandboxMode
  /**
   * With `granted`: the user's allow rule covered the command, so git runs as the repository
   * configures it (its hooks too, confined) instead of with {@link withNeutralGit}'s overrides.
   */
  gitAsConfigured?: boolean
  /**
   * The repository's linked-worktree admin folder (`<git>/worktrees/`) stays writable: a
   * WorktreeCreate or WorktreeRemove hook stands in for the engine's own `git worktree add`/`remove`.
   * The hooks, configuration and `info/` stay read-only.
   */
  manageWorktrees?: boolean
}

/** A confined command, ready to start: wrap its argv; call `release` once it has exited. */
export interface PreparedSandbox {
  mode: SandboxMode
  profile: SandboxProfile
  wrap: CommandWrapper
  release(): Promise<void>
  /**
   * After `release`: what the engine undid of the command's writes (protected files it created in
   * a subfolder), one line each for the model to pass on to the user.
   */
  notices?: readonly string[]
}

/** The sandbox settings (`[shell.sandbox]`). */
export interface SandboxSettings {
  enabled: boolean
  allowNetwork: boolean
  /** `read_paths`: shown read-only in every confined view (`~/` is the home). */
  readPaths?: readonly string[]
  /** `write_paths`: writable in write mode (tool caches), read-only in read-only mode. */
  writePaths?: readonly string[]
}

/**
 * Which mode a command runs in (pure): the mode its permission relied on, else the write profile
 * when `[shell.sandbox]` is on, else none (unconfined). Nothing is confined without a backend.
 */
export function sandboxModeFor(input: {
  available: boolean
  granted?: SandboxMode
  enabled: boolean
}): SandboxMode | undefined {
  if (!input.available) return undefined
  if (input.granted !== undefined) return input.granted
  return input.enabled ? 'write' : undefined
}

/**
 * Placeholders bubblewrap made for this process's commands, with how many commands use each now, so
 * the last one out removes it. A path stays listed (at 0) after its removal: a command planned while
 * it was there saw a path that exists and must still plan a placeholder, or the first command's
 * cleanup removes what its bind needs before it starts.
 */
const placeholderUsers = new Map<string, number>()

/** The seeded placeholders this process wrote (path → content): theirs, not a file somebody made. */
const placeholderSeeds = new Map<string, string>()

/**
 * A session's sandbox: the backend, the settings and a private temp folder shared by its confined
 * commands. `prepare` decides the mode and plans the backend's argv for one command.
 */
export class Sandbox {
  private constructor(
    readonly backend: SandboxBackend,
    private readonly settings: SandboxSettings,
    private readonly home: string,
    private readonly env: Readonly<Record<string, string | undefined>>,
    /** The private temp folder (TMPDIR of confined commands). */
    readonly tmpDir: string,
    /** The engine's own folders (config, sessions), masked wherever a bound folder holds them. */
    private readonly engineDirs: readonly string[],
  ) {}

  /** Creates the session's sandbox and its private temp folder. */
  static async create(options: {
    backend: SandboxBackend
    settings: SandboxSettings
    home: string
    env: Readonly<Record<string, string | undefined>>
    /** The engine's config and data folders: never readable from inside, even under a bound folder. */
    engineDirs?: readonly string[]
  }): Promise<Sandbox> {
    const tmpDir =
      options.backend.kind === 'none'
        ? ''
        : await realpath(await mkdtemp(join(tmpdir(), 'z-engine-sandbox-')))
    return new Sandbox(
      options.backend,
      options.settings,
      options.home,
      options.env,
      tmpDir,
      options.engineDirs ?? [],
    )
  }

  /** Whether commands can be confined on this machine. */
  get available(): boolean {
    return this.backend.kind !== 'none'
  }

  /** Whether commands the user approved run confined (`[shell.sandbox] enabled` with a backend). */
  get confinesApproved(): boolean {
    return this.available && this.settings.enabled
  }

  /** Folders confined commands may write beyond the agent's root and folders: temp and `write_paths`. */
  async writableRoots(): Promise<string[]> {
    if (!this.available) return []
    const named = (this.settings.writePaths ?? []).map((path) =>
      path === '~' ? this.home : path.startsWith('~/') ? join(this.home, path.slice(2)) : path,
    )
    const existing: string[] = []
    for (const path of named) {
      const info = await stat(path).catch(() => undefined)
      if (info?.isDirectory()) existing.push(await realpath(path))
    }
    return [this.tmpDir, ...existing]
  }

  #viewFiles: Promise<{ dir: string; files: BoundFile[] }> | undefined
  #seccomp: Promise<string> | undefined

  /**
   * The seccomp program's file (no unix sockets), written once into the sandbox's private folder:
   * outside every view, so no confined command can change it.
   */
  #seccompFile(dir: string): Promise<string> {
    this.#seccomp ??= (async () => {
      const path = join(dir, 'no-unix-sockets.bpf')
      await writeFile(path, unixSocketFilter(), { mode: 0o400 })
      return path
    })()
    return this.#seccomp
  }

  /** Plans one command's confinement; undefined when it runs unconfined. */
  async prepare(request: SandboxRequest): Promise<PreparedSandbox | undefined> {
    const mode = sandboxModeFor({
      available: this.available,
      enabled: this.settings.enabled,
      ...(request.granted !== undefined ? { granted: request.granted } : {}),
    })
    if (mode === undefined) return undefined
    this.#viewFiles ??= prepareViewFiles(this.home, this.env)
    const { dir, files } = await this.#viewFiles
    const seccomp = this.backend.kind === 'bubblewrap' ? await this.#seccompFile(dir) : undefined
    // Before the command: what it may not change below the top levels, and what to compare with after.
    const scans: NestedScan[] =
      mode === 'write'
        ? await Promise.all([request.root, ...request.additionalDirectories].map((dir) => scanNested(dir)))
        : []
    const nested = scans.flatMap(nestedPaths)
    const profile = await resolveProfile({
      files,
      nested: request.manageWorktrees ? await withoutLinkedWorktrees(request.root, nested) : nested,
      mode,
      root: request.root,
      additionalDirectories: request.additionalDirectories,
      home: this.home,
      tmpDir: this.tmpDir,
      allowNetwork: request.network ?? this.settings.allowNetwork,
      ...(request.programs ? { programs: request.programs } : {}),
      ...(request.manageWorktrees ? { manageWorktrees: true } : {}),
      readPaths: [...(this.settings.readPaths ?? []), ...narrowerThanHome(request.readable ?? [], this.home)],
      writePaths: this.settings.writePaths ?? [],
      masked: [...this.engineDirs, ...(request.masked ?? [])],
      env: this.env,
    })
    const backend = this.backend
    const wrap: CommandWrapper = (argv, cwd) => {
      switch (backend.kind) {
        case 'bubblewrap':
          return planBubblewrap(profile, argv, cwd, backend.path, seccomp)
        case 'seatbelt':
          return planSeatbelt(profile, argv, backend.path)
        case 'none':
          return argv
        default: {
          const unreachable: never = backend
          throw new Error(`unknown sandbox backend ${JSON.stringify(unreachable)}`)
        }
      }
    }
    if (backend.kind === 'bubblewrap') adoptPlaceholders(profile)
    const placeholders = backend.kind === 'bubblewrap' ? profile.placeholders : []
    for (const entry of placeholders) {
      placeholderUsers.set(entry.path, (placeholderUsers.get(entry.path) ?? 0) + 1)
      if (entry.seed !== undefined) await writeSeed(entry.path, entry.seed)
    }
    let released = false
    // A little earlier than the command's start: file times are coarser than the clock on some systems.
    const started = Date.now() - 2_000
    const prepared: PreparedSandbox = {
      mode,
      profile,
      wrap,
      release: async () => {
        if (released) return
        released = true
        await removePlaceholders(placeholders)
        await removeCreated(profile.removeAfter)
        if (mode !== 'write') return
        await unstageEmbeddedRepositories(request.root, started).catch(() => [])
        const removed: string[] = []
        for (const scan of scans) {
          const paths = await removeNewNested(scan, started).catch(() => [])
          removed.push(...paths.map((path) => (scan.root === request.root ? path : join(scan.root, path))))
        }
        if (removed.length > 0) prepared.notices = [removalNotice(removed)]
      },
    }
    return prepared
  }

  /** Removes the private temp folder (session close). */
  async dispose(): Promise<void> {
    if (this.tmpDir !== '') await rm(this.tmpDir, { recursive: true, force: true })
    const view = await this.#viewFiles?.catch(() => undefined)
    if (view) await rm(view.dir, { recursive: true, force: true })
  }
}

/** The paths that are neither the home, a parent of it nor `/`. */
function narrowerThanHome(paths: readonly string[], home: string): string[] {
  return paths.filter((path) => {
    const folder = resolve(path)
    return folder !== dirname(folder) && !within(home, [folder])
  })
}

/**
 * Removes the toolchain files a confined command created (they were missing when it started).
 * Its pid namespace is gone by now, so nothing of it can write them again.
 */
async function removeCreated(paths: readonly string[]): Promise<void> {
  for (const path of paths) await rm(path, { recursive: true, force: true }).catch(() => {})
}

/**
 * Plans as placeholders the protected paths that exist only as this process's own placeholders
 * (another command's, still there): planned as read-only binds, they could vanish before bwrap runs.
 */
function adoptPlaceholders(profile: { readOnly: ProfilePath[]; placeholders: ProfilePath[] }): void {
  const adopted = profile.readOnly
    .filter((entry) => placeholderUsers.has(entry.path) && emptyOrGone(entry.path))
    .map((entry) => {
      const seed = placeholderSeeds.get(entry.path)
      return seed === undefined ? entry : { ...entry, seed }
    })
  if (adopted.length === 0) return
  const paths = new Set(adopted.map((entry) => entry.path))
  profile.readOnly = profile.readOnly.filter((entry) => !paths.has(entry.path))
  profile.placeholders = [...profile.placeholders, ...adopted]
}

/**
 * Whether a path is missing or empty: a placeholder (possibly being removed right now), not a file
 * or folder somebody has since put there. Synchronous, so no cleanup runs between check and use.
 */
function emptyOrGone(path: string): boolean {
  try {
    const info = lstatSync(path)
    if (info.isDirectory()) return readdirSync(path).length === 0
    return info.isFile() && (info.size === 0 || isSeed(path))
  } catch {
    return true
  }
}

/** Removes the empty mount points bubblewrap left for placeholders once no command uses them. */
async function removePlaceholders(entries: readonly ProfilePath[]): Promise<void> {
  for (const entry of entries) {
    const users = (placeholderUsers.get(entry.path) ?? 1) - 1
    if (users > 0) {
      placeholderUsers.set(entry.path, users)
      continue
    }
    placeholderUsers.set(entry.path, 0)
    const info = await lstat(entry.path).catch(() => undefined)
    // A command planned meanwhile uses it again (it plans a placeholder, which bwrap recreates if
    // this removal wins); it removes it when it ends.
    if ((placeholderUsers.get(entry.path) ?? 0) > 0) continue
    if (info && entry.kind === 'file' && info.isFile() && (info.size === 0 || isSeed(entry.path)))
      await unlink(entry.path).catch(() => {})
    if (info && entry.kind === 'dir' && info.isDirectory()) await rmdir(entry.path).catch(() => {})
  }
}

/**
 * Writes a seeded placeholder unless something is there already (another command's, or a file that
 * appeared since the profile was resolved: then that file is what gets bound read-only).
 */
async function writeSeed(path: string, seed: string): Promise<void> {
  placeholderSeeds.set(path, seed)
  await writeFile(path, seed, { flag: 'wx', mode: 0o644 }).catch(() => {})
}

/** Whether `path` holds exactly the seed this process wrote there. */
function isSeed(path: string): boolean {
  const seed = placeholderSeeds.get(path)
  if (seed === undefined) return false
  try {
    return readFileSync(path, 'utf8') === seed
  } catch {
    return false
  }
}
