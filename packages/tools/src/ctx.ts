import type { ConfinedShellResult, SandboxRequest } from '@z-engine/host'
import type { Confinement } from '@z-engine/policy'
import type { OutputKind } from './output-kind.js'
import type { CheckInfo, Ports } from './ports.js'

/** What `action()` and `title()` need: enough to resolve paths, nothing that does I/O. */
export interface ActionCtx {
  /** The agent's root (the project, or a worktree for worktree agents). */
  projectRoot: string
  /** The agent's persistent shell cwd; relative paths in input resolve against it. */
  cwd: string
  /** The user's home folder, for `~` in input. */
  home: string
  /** The project's checks as known now (Verify maps a run to their commands); absent: unknown. */
  checks?: readonly CheckInfo[]
}

/** A file as the model last saw it: `hash` is the sha256 of the whole file's bytes. */
export interface FileSnapshot {
  mtimeMs: number
  size: number
  hash: string
  /** The read covered only part of the file (offset/limit). */
  partial: boolean
}

/** What the model last saw of a file; edits based on stale content are refused. */
export interface FileTracker {
  /** Records a read (or a write the tool made itself) of `path` with its content hash and mtime. */
  recordRead(path: string, snapshot: FileSnapshot): void
  /** The last recorded snapshot, or undefined when the model never read the file. */
  lastRead(path: string): FileSnapshot | undefined
  /** Forgets a path (deleted, or rewound). */
  forget(path: string): void
  /** Every path with a recorded read. */
  paths(): string[]
}

/** Serializes writes to the same path across concurrent agents. */
export interface PathLocks {
  /** Runs `work` holding the locks of every path (acquired in sorted order to avoid deadlock). */
  withLocks<T>(paths: string[], work: () => Promise<T>): Promise<T>
}

/** A result shaped by the semantic output budget. */
export interface BudgetedText {
  text: string
  shortened: boolean
}

/** Fits `text` of a result category into that category's token budget (see {@link OutputKind}). */
export type OutputBudget = (text: string, kind: OutputKind) => BudgetedText

/** Size limits tools respect. */
export interface ToolLimits {
  /** Characters of a result before it is shortened and spilled to an artifact. */
  maxResultChars: number
  /** Lines Read returns by default. */
  readDefaultLines: number
  /** Bytes Read accepts for a text file. */
  readMaxBytes: number
  /** Default and maximum Bash timeout in milliseconds. */
  bashDefaultTimeoutMs: number
  bashMaxTimeoutMs: number
}

/**
 * Runs one command in the agent's shell (host's `runShellCommand` with the environment policy and
 * sandbox already applied). The tool passes the agent's cwd and updates it from the result.
 */
export interface ShellRunner {
  run(
    command: string,
    options: {
      cwd: string
      timeoutMs: number
      signal: AbortSignal
      onOutput?: (text: string) => void
      /** The agent's root and folders, and the confinement the permission relied on. */
      sandbox?: SandboxRequest
    },
  ): Promise<ConfinedShellResult>
}

/** The default limits. */
export const DEFAULT_TOOL_LIMITS: ToolLimits = {
  maxResultChars: 30_000,
  readDefaultLines: 2_000,
  readMaxBytes: 256 * 1024,
  bashDefaultTimeoutMs: 120_000,
  bashMaxTimeoutMs: 600_000,
}

/**
 * The per-call capability bundle (spec 000 "Tools contract"). Tools reach the file system through
 * Node APIs directly, processes through the agent's shell, and engine services only through `ports`.
 */
export interface ToolCtx extends ActionCtx {
  sessionId: string
  agentId: string
  toolUseId: string
  /** Folders outside the project the user added (`/add-dir`). */
  additionalDirectories: string[]
  /** Changes the agent's persistent cwd (Bash `cd`). */
  setCwd(cwd: string): void
  fileTracker: FileTracker
  pathLocks: PathLocks
  /** Streams progress for the UI (rate-limited by the engine). */
  progress(update: { message?: string; output?: string }): void
  /** Saves a long text as a session artifact and returns its path. */
  spill(content: string, hint: string): Promise<string>
  limits: ToolLimits
  /**
   * The semantic output budget (spec 004): fits a result of a category into its estimated-token
   * budget keeping its structure. The engine supplies it; without it only the byte ceiling applies.
   */
  outputBudget?: OutputBudget
  /** Whether the model accepts images. */
  vision: boolean
  /** Environment for child processes (already filtered by the environment policy). */
  env: Record<string, string>
  /** The agent's shell (Bash); the persistent cwd is `cwd`/`setCwd`. */
  shell: ShellRunner
  /**
   * The confinement this call's permission relied on (the policy auto-allowed it because it runs
   * confined); set by the batch. Absent: the user approved it and `[shell.sandbox]` decides.
   */
  confinement?: Confinement
  /**
   * Whether a deny rule forbids reading `path` (policy's `readDenied` bound to the session's rules).
   * The policy sees only a search's root folder, so Glob and Grep drop denied files from results.
   * Absent: nothing is filtered.
   */
  isReadDenied?(path: string): boolean
  /**
   * The real path (symlinks resolved) the permission decision saw for each path of this call. File
   * tools resolve again when they open and refuse when a link changed in between (no TOCTOU).
   * Set by the engine's batch; absent when a tool runs outside the gate.
   */
  decidedRealPaths?: Readonly<Record<string, string>>
  ports: Ports
}

/** The sandbox request of a shell command this call runs (its root, folders and confinement). */
export function sandboxRequestOf(ctx: ToolCtx): SandboxRequest {
  return {
    root: ctx.projectRoot,
    additionalDirectories: ctx.additionalDirectories,
    ...grantOf(ctx.confinement),
  }
}

/**
 * The sandbox grant of a permission's confinement: a rule's allow runs in the write profile with
 * git as the repository configures it; none leaves it to `[shell.sandbox] enabled`.
 */
export function grantOf(
  confinement: Confinement | undefined,
): Pick<SandboxRequest, 'granted' | 'gitAsConfigured'> {
  switch (confinement) {
    case undefined:
      return {}
    case 'read-only':
    case 'write':
      return { granted: confinement }
    case 'rule':
      return { granted: 'write', gitAsConfigured: true }
    default: {
      const unreachable: never = confinement
      throw new Error(`unknown confinement ${JSON.stringify(unreachable)}`)
    }
  }
}
