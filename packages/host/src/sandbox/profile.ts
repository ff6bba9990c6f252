/**
 * A sandbox profile as data: what a confined command sees (an allowlist: system folders, the
 * project, the folders the settings name), what it may write, what stays read-only inside that,
 * what is masked, and whether it reaches the network. Both backends plan from the same profile
 * (bubblewrap argv, seatbelt profile text), so they cannot drift apart.
 */

/**
 * How a command is confined. `read-only`: nothing is writable but the private temp folder, and the
 * network is off (a command the policy proved read-only needs neither). `write`: the agent's root,
 * additional directories, tool caches and temp are writable, protected paths inside them are not.
 */
export type SandboxMode = 'read-only' | 'write'

/** A path the profile names, with what it is (a folder is covered differently from a file). */
export interface ProfilePath {
  path: string
  kind: 'dir' | 'file'
  /**
   * A placeholder file's content, when an empty one would break what reads it (git's `commondir`
   * reads as `.`): the engine writes it before the command and binds it read-only over itself.
   */
  seed?: string
}

/** A system folder of the view: bound read-only, or (merged /usr) a symlink recreated as one. */
export type SystemEntry = { kind: 'dir'; path: string } | { kind: 'symlink'; path: string; target: string }

/** A file the engine prepared, bound read-only at `path` in the view. */
export interface BoundFile {
  source: string
  path: string
}

/** Everything a backend needs to confine one command. */
export interface SandboxProfile {
  mode: SandboxMode
  /** The system part of the view (`/usr`, `/bin`, `/lib*`, `/opt`), as found on this machine. */
  system: SystemEntry[]
  /** The `/etc` entries of the view (existing paths from the allowlist). */
  etc: SystemEntry[]
  /** The user's home: an empty folder in the view (only what the settings name is bound into it). */
  home: string
  /** Files the engine prepared for the view (`~/.gitconfig` holding only the git identity). */
  files: BoundFile[]
  /**
   * Folders and files shown read-only: the project in read-only mode, `read_paths`, and the
   * install prefixes of the shell's tools and of Node outside the system folders.
   */
  readable: string[]
  /** Folders the command may write (real paths, the temp folder included). */
  writable: string[]
  /**
   * Existing paths inside `writable` that stay read-only (git hooks and config, harness settings).
   * Folders among them are also mount points, so they cannot be renamed away and replaced.
   */
  readOnly: ProfilePath[]
  /**
   * Protected paths that do not exist yet: an empty read-only placeholder is put there so the
   * command cannot create them (bubblewrap leaves the empty placeholder behind; git ignores it).
   */
  placeholders: ProfilePath[]
  /**
   * Folders inside `writable` kept as their own mount, so they cannot be renamed away: `.git`, and
   * every folder between the root and a protected path (renaming `tools` would carry a protected
   * `tools/hooks` away and let a new one be made in its place).
   */
  pinned: string[]
  /**
   * Existing paths covered by an empty folder or file inside the view: secrets under a bound folder,
   * the engine's own folders, and what `Read(...)` deny rules name.
   */
  hidden: ProfilePath[]
  /**
   * Toolchain files (`rust-toolchain.toml`, `.envrc`…) missing when the command started: removed
   * again once it has ended, so a confined command cannot leave one for the next build.
   */
  removeAfter: string[]
  /** The private temp folder (`TMPDIR` inside the sandbox). */
  tmpDir: string
  /** Outbound network: false unshares it (Linux) or denies all but localhost (macOS). */
  network: boolean
}
