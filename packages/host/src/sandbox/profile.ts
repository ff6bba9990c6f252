/**
 * A sandbox profile as data: what a confined command may write, what stays read-only inside that,
 * what is hidden, and whether it reaches the network. Both backends plan from the same profile
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
}

/** Everything a backend needs to confine one command. */
export interface SandboxProfile {
  mode: SandboxMode
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
  /** Folders inside `writable` kept as their own mount (`.git`), so they cannot be renamed away. */
  pinned: string[]
  /** Existing secret paths, covered by an empty folder or file. */
  hidden: ProfilePath[]
  /** The private temp folder (`TMPDIR` inside the sandbox). */
  tmpDir: string
  /** Outbound network: false unshares it (Linux) or denies all but localhost (macOS). */
  network: boolean
}
