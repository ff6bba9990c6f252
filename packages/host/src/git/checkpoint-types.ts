import type { MergeConflict } from './merge-file.js'

/** Files above this size are left out of checkpoints unless configured otherwise (10 MiB). */
export const DEFAULT_MAX_CHECKPOINT_FILE_BYTES = 10 * 1024 * 1024

/** Files one checkpoint may capture (new, changed or removed since the last one) before it is skipped. */
export const DEFAULT_MAX_CHECKPOINT_FILES = 10_000

/** Bytes one checkpoint may copy (new or changed files) before it is skipped (100 MiB). */
export const DEFAULT_MAX_CHECKPOINT_BYTES = 100 * 1024 * 1024

/** Options of {@link ShadowCheckpoints.open}. */
export interface ShadowCheckpointsOptions {
  /** The project whose working tree is snapshotted. It need not be a git repository. */
  projectRoot: string
  /** The shadow repository, outside the project (see `checkpointRepoDir`). Created on first use. */
  gitDir: string
  /** Files larger than this are not captured (default {@link DEFAULT_MAX_CHECKPOINT_FILE_BYTES}). */
  maxFileBytes?: number
  /**
   * A snapshot that would capture more files than this (default {@link DEFAULT_MAX_CHECKPOINT_FILES})
   * stops listing there and fails with code `overBudget`, copying nothing.
   */
  maxFiles?: number
  /** Likewise for bytes copied (default {@link DEFAULT_MAX_CHECKPOINT_BYTES}). */
  maxBytes?: number
  /** The git executable (default `git`). */
  gitPath?: string
  /** The environment git starts from (default `process.env`); `GIT_*` variables are dropped. */
  env?: Readonly<Record<string, string | undefined>>
  /**
   * Paths (relative to the project, `/`-separated) never captured and never touched by a restore or
   * shown by a diff: files under Read deny rules. Asked on every snapshot, so it may change.
   */
  exclude?: (path: string) => boolean
  /**
   * Whether `exclude` may exclude any path now (false while no Read deny rule exists): a snapshot
   * then neither asks it about every path nor lists the index to drop what it covers (issue 40).
   * Default: it may.
   */
  excludesAny?: () => boolean
}

/** A snapshot taken. */
export interface CheckpointSnapshot {
  /** The checkpoint id: a commit in the shadow repository. */
  commit: string
  tree: string
  /** True when nothing changed since the previous checkpoint and its commit was reused. */
  reused: boolean
  /** Files left out for exceeding the size limit. */
  skippedLarge: string[]
}

/** One file that differs between two checkpoints. */
export interface CheckpointFileChange {
  status: 'added' | 'modified' | 'deleted' | 'renamed' | 'typeChanged'
  path: string
  /** For renames: where it was. */
  oldPath?: string
}

/** A preview of what restoring would change, or what changed between two checkpoints. */
export interface CheckpointDiff {
  files: CheckpointFileChange[]
  /** A unified diff (binary files as "Binary files … differ"). */
  patch: string
}

/** Options of {@link ShadowCheckpoints.restore}. */
export interface RestoreOptions {
  /** Restore only these paths (relative to the project); every other file is left as it is. */
  only?: readonly string[]
}

/** One file's agent changes reverted hunk by hunk (see {@link ShadowCheckpoints.revertHunks}). */
export interface HunkRevert {
  /** The file's text before the revert, and after it. */
  before: string
  after: string
  /** Regions where a later edit overlaps the agent's change: left as they are. */
  conflicts: MergeConflict[]
}

/** What a restore did. */
export interface RestoreReport {
  /** A checkpoint of the tree as it was just before the restore, so the restore can be undone. */
  before: string
  /** Paths written or removed. */
  changedPaths: string[]
}

/** A checkpoint operation's result; failures are values with a message saying what to do. */
export type CheckpointResult<T> =
  | { ok: true; value: T }
  | { ok: false; error: { code: string; message: string } }

/** A failed checkpoint operation. */
export function checkpointFailure<T>(code: string, message: string): CheckpointResult<T> {
  return { ok: false, error: { code, message } }
}
