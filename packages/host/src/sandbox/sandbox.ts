import { lstat, mkdtemp, realpath, rm, rmdir, unlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CommandWrapper } from '../process/shell.js'
import { planBubblewrap } from './bwrap-plan.js'
import type { SandboxBackend } from './detect.js'
import type { ProfilePath, SandboxMode, SandboxProfile } from './profile.js'
import { existingToolCaches, resolveProfile } from './resolve-profile.js'
import { planSeatbelt } from './seatbelt-plan.js'

/** One command to confine: the agent's root and folders, and the mode its permission relied on. */
export interface SandboxRequest {
  /** The agent's root: the project, or a worktree agent's worktree. */
  root: string
  additionalDirectories: readonly string[]
  /**
   * The confinement the permission decision relied on (the policy auto-allowed the command because
   * it will run confined). Absent: the user approved it, and `[shell.sandbox] enabled` decides.
   */
  granted?: SandboxMode
}

/** A confined command, ready to start: wrap its argv; call `release` once it has exited. */
export interface PreparedSandbox {
  mode: SandboxMode
  profile: SandboxProfile
  wrap: CommandWrapper
  release(): Promise<void>
}

/** The sandbox settings (`[shell.sandbox]`). */
export interface SandboxSettings {
  enabled: boolean
  allowNetwork: boolean
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

/** Placeholders in use by commands of this process, so the last one out removes them. */
const placeholderUsers = new Map<string, number>()

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
  ) {}

  /** Creates the session's sandbox and its private temp folder. */
  static async create(options: {
    backend: SandboxBackend
    settings: SandboxSettings
    home: string
    env: Readonly<Record<string, string | undefined>>
  }): Promise<Sandbox> {
    const tmpDir =
      options.backend.kind === 'none'
        ? ''
        : await realpath(await mkdtemp(join(tmpdir(), 'z-engine-sandbox-')))
    return new Sandbox(options.backend, options.settings, options.home, options.env, tmpDir)
  }

  /** Whether commands can be confined on this machine. */
  get available(): boolean {
    return this.backend.kind !== 'none'
  }

  /** Whether commands the user approved run confined (`[shell.sandbox] enabled` with a backend). */
  get confinesApproved(): boolean {
    return this.available && this.settings.enabled
  }

  /** Folders confined commands may write beyond the agent's root and folders: temp and tool caches. */
  async writableRoots(): Promise<string[]> {
    if (!this.available) return []
    return [this.tmpDir, ...(await existingToolCaches(this.home, this.env))]
  }

  /** Plans one command's confinement; undefined when it runs unconfined. */
  async prepare(request: SandboxRequest): Promise<PreparedSandbox | undefined> {
    const mode = sandboxModeFor({
      available: this.available,
      enabled: this.settings.enabled,
      ...(request.granted !== undefined ? { granted: request.granted } : {}),
    })
    if (mode === undefined) return undefined
    const profile = await resolveProfile({
      mode,
      root: request.root,
      additionalDirectories: request.additionalDirectories,
      home: this.home,
      tmpDir: this.tmpDir,
      allowNetwork: this.settings.allowNetwork,
      env: this.env,
    })
    const backend = this.backend
    const wrap: CommandWrapper = (argv, cwd) => {
      switch (backend.kind) {
        case 'bubblewrap':
          return planBubblewrap(profile, argv, cwd, backend.path)
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
    const placeholders = backend.kind === 'bubblewrap' ? profile.placeholders : []
    for (const entry of placeholders)
      placeholderUsers.set(entry.path, (placeholderUsers.get(entry.path) ?? 0) + 1)
    let released = false
    return {
      mode,
      profile,
      wrap,
      release: async () => {
        if (released) return
        released = true
        await removePlaceholders(placeholders)
      },
    }
  }

  /** Removes the private temp folder (session close). */
  async dispose(): Promise<void> {
    if (this.tmpDir !== '') await rm(this.tmpDir, { recursive: true, force: true })
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
    placeholderUsers.delete(entry.path)
    const info = await lstat(entry.path).catch(() => undefined)
    if (!info) continue
    if (entry.kind === 'file' && info.isFile() && info.size === 0) await unlink(entry.path).catch(() => {})
    if (entry.kind === 'dir' && info.isDirectory()) await rmdir(entry.path).catch(() => {})
  }
}
