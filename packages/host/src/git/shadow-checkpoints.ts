import { lstat, mkdir, readFile, realpath, stat, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { inflateSync } from 'node:zlib'
import { GitCommandError, type GitContext, gitOk, runGit, splitNul } from './git-runner.js'
import { type RefUpdate, updateLooseRefs, writeLooseCommit } from './loose-objects.js'
import { type MergeConflict, mergeThreeWay } from './merge-file.js'
import { projectExcludesFile } from './project-excludes.js'
import { applyTreeChanges, treeChanges } from './restore-tree.js'
import {
  type ExcludePath,
  type KnownIndexPaths,
  type StageBudget,
  StageBudgetError,
  type StageReport,
  stageWorkTree,
} from './stage.js'

/** Files above this size are left out of checkpoints unless configured otherwise (10 MiB). */
export const DEFAULT_MAX_CHECKPOINT_FILE_BYTES = 10 * 1024 * 1024

/** Files one checkpoint may capture (new, changed or removed since the last one) before it is skipped. */
export const DEFAULT_MAX_CHECKPOINT_FILES = 10_000

/** Bytes one checkpoint may copy (new or changed files) before it is skipped (100 MiB). */
export const DEFAULT_MAX_CHECKPOINT_BYTES = 100 * 1024 * 1024

/** The ref holding the newest checkpoint; every checkpoint is reachable from it (parent chain). */
const HEAD_REF = 'refs/z-engine/checkpoints'
const RAW_ATTRIBUTES = '* -text !eol -filter -ident !working-tree-encoding !diff\n'
const ZERO_ID = '0000000000000000000000000000000000000000'
const MARK_PREFIX = 'refs/z-engine/marks/'
/** Author and committer of checkpoint commits (as the fixed `user.name` / `user.email` config). */
const COMMIT_IDENT = 'z-engine <checkpoints@z-engine.invalid>'
const MARK_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

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

/**
 * Shadow-git checkpoints of a project's working tree (spec 000 "Persistence"): a repository in the
 * data dir whose work tree is the project. It honours the project's `.gitignore` files and
 * `.git/info/exclude`, never captures `.git`, and never reads or writes the project's own
 * repository (index, refs, hooks and config stay untouched): git runs with `GIT_DIR` set to the
 * shadow repository, no system/global config, and hooks disabled. Operations are serialized.
 */
export class ShadowCheckpoints {
  private queue: Promise<unknown> = Promise.resolve()
  /** The newest checkpoint as last read from the ref. */
  private head: { commit: string; tree: string } | undefined
  /** The tree the shadow index holds, with the index file's stamp when this instance wrote it. */
  private indexTree: { tree: string; stamp: string } | undefined
  /** The index's paths after this instance's last pass, valid while the index file's stamp is `stamp`. */
  private indexPaths: { paths: Set<string>; stamp: string } | undefined

  private constructor(
    private readonly context: GitContext,
    private readonly maxFileBytes: number,
    private readonly budget: StageBudget,
    private readonly exclude: ExcludePath | undefined,
  ) {}

  /** Opens (creating if needed) the shadow repository of a project. */
  static async open(options: ShadowCheckpointsOptions): Promise<CheckpointResult<ShadowCheckpoints>> {
    let projectRoot = resolve(options.projectRoot)
    try {
      if (!(await stat(projectRoot)).isDirectory()) {
        return failure('notADirectory', `${projectRoot} is not a directory`)
      }
      // The real path, so a project opened through a symlink is the same work tree.
      projectRoot = await realpath(projectRoot)
    } catch {
      return failure('notFound', `project root ${projectRoot} does not exist`)
    }
    const excludesFile = await projectExcludesFile(projectRoot)
    const context: GitContext = {
      gitPath: options.gitPath ?? 'git',
      gitDir: resolve(options.gitDir),
      workTree: projectRoot,
      baseEnv: options.env ?? process.env,
      ...(excludesFile !== undefined ? { excludesFile } : {}),
    }
    try {
      // Checkpoints hold the project's files: private to the user, like session logs (0700).
      await mkdir(context.gitDir, { recursive: true, mode: 0o700 })
      // What git itself checks of a repository, read without starting git (each git process costs
      // ~10 ms of CPU, issue 17); a folder missing any of them is (re)initialised, as before.
      if (!(await looksLikeRepository(context.gitDir))) {
        await gitOk(context, ['init', '-q', '--bare', context.gitDir], { noWorkTree: true })
        await gitOk(context, ['config', 'core.bare', 'false'])
        await gitOk(context, ['config', 'core.logAllRefUpdates', 'false'])
      }
      // info/attributes outranks the project's .gitattributes: store bytes exactly as they are on
      // disk (no eol conversion, clean/smudge filters such as LFS, ident or re-encoding), so a
      // restore is byte-identical.
      await mkdir(join(context.gitDir, 'info'), { recursive: true })
      await writeFile(join(context.gitDir, 'info', 'attributes'), RAW_ATTRIBUTES)
    } catch (error) {
      return failure(
        'gitUnavailable',
        `cannot set up the checkpoint repository: ${(error as Error).message}; is git installed?`,
      )
    }
    return {
      ok: true,
      value: new ShadowCheckpoints(
        context,
        options.maxFileBytes ?? DEFAULT_MAX_CHECKPOINT_FILE_BYTES,
        {
          maxFiles: options.maxFiles ?? DEFAULT_MAX_CHECKPOINT_FILES,
          maxBytes: options.maxBytes ?? DEFAULT_MAX_CHECKPOINT_BYTES,
        },
        options.exclude,
      ),
    }
  }

  /** The shadow repository's path. */
  get gitDir(): string {
    return this.context.gitDir
  }

  /**
   * Snapshots the working tree (untracked files and changes made by any process included). When
   * the tree equals the previous checkpoint's, that commit is returned and nothing is written.
   */
  snapshot(message = 'checkpoint'): Promise<CheckpointResult<CheckpointSnapshot>> {
    return this.serialized(() => this.snapshotNow(message))
  }

  /**
   * Restores the working tree to a checkpoint: files added since are removed, modified and deleted
   * files come back byte for byte, ignored, oversized and excluded files are left alone (an excluded
   * file in a checkpoint taken before its rule existed is not written back). The current tree is
   * checkpointed first (`before`), so a restore can itself be undone.
   */
  restore(commit: string, options: RestoreOptions = {}): Promise<CheckpointResult<RestoreReport>> {
    return this.serialized(async () => {
      const target = await this.treeOf(commit)
      if (target === undefined)
        return failure('unknownCheckpoint', `no checkpoint ${commit} in ${this.context.gitDir}`)
      const before = await this.snapshotNow(`before restoring ${commit}`)
      if (!before.ok) return before
      const only = options.only === undefined ? undefined : new Set(options.only)
      try {
        const changes = (await treeChanges(this.context, before.value.tree, target)).filter(
          (change) => !this.isExcluded(change.path) && (only === undefined || only.has(change.path)),
        )
        this.indexTree = undefined
        await applyTreeChanges(this.context, changes)
        if (only === undefined) {
          await gitOk(this.context, ['read-tree', target])
          await runGit(this.context, ['update-index', '-q', '--refresh'])
          this.indexTree = { tree: target, stamp: await this.indexStamp() }
        }
        return {
          ok: true,
          value: { before: before.value.commit, changedPaths: changes.map((change) => change.path) },
        }
      } catch (error) {
        const text = `restoring ${commit} failed part way: ${(error as Error).message}; restore ${before.value.commit} to go back`
        return failure('restoreFailed', text)
      }
    })
  }

  /**
   * Reverts the changes `steps` made to one file (each from checkpoint `from` to `to`, oldest
   * first) in the file as it is now, keeping every other change in it: for each step, newest first,
   * a three-way merge of the file, the step's end and its start. Where a later edit overlaps the
   * step's change the file keeps its text, and the region is reported. Writes the result unless
   * `dryRun`. Undefined when the file is missing in the working tree or at a step's end or start,
   * is not a regular file, or is binary: it can only be kept or reverted whole.
   */
  revertHunks(
    path: string,
    steps: ReadonlyArray<{ from: string; to: string }>,
    options: { dryRun?: boolean } = {},
  ): Promise<CheckpointResult<HunkRevert | undefined>> {
    return this.serialized(async () => {
      if (this.isExcluded(path)) return { ok: true, value: undefined }
      const file = join(this.context.workTree, path)
      const info = await lstat(file).catch(() => undefined)
      if (info === undefined || !info.isFile()) return { ok: true, value: undefined }
      const before = await readFile(file)
      let text: Buffer = before
      const conflicts: MergeConflict[] = []
      for (const step of [...steps].reverse()) {
        const base = await this.blobAt(step.to, path)
        const theirs = await this.blobAt(step.from, path)
        if (base === undefined || theirs === undefined) return { ok: true, value: undefined }
        const merged = await mergeThreeWay(this.context, { ours: text, base, theirs })
        if (merged === undefined) return { ok: true, value: undefined }
        text = merged.text
        conflicts.push(...merged.conflicts)
      }
      if (!options.dryRun && !text.equals(before)) await writeFile(file, text)
      return {
        ok: true,
        value: { before: before.toString('utf8'), after: text.toString('utf8'), conflicts },
      }
    })
  }

  /** A file's content in a checkpoint, or undefined when it has none there. */
  private async blobAt(commit: string, path: string): Promise<Buffer | undefined> {
    const shown = await runGit(this.context, ['cat-file', 'blob', `${commit}:${path}`])
    return shown.code === 0 ? shown.stdout : undefined
  }

  /**
   * Packs the shadow repository and drops objects no checkpoint refers to (blobs staged by a pass
   * that never became a checkpoint). Every checkpoint stays: all are reachable from the ref chain.
   * Automatic gc is off so a turn never waits on it; the engine may call this when idle.
   */
  compact(): Promise<CheckpointResult<void>> {
    return this.serialized(async () => {
      try {
        await gitOk(this.context, ['gc', '-q', '--prune=now'])
        return { ok: true, value: undefined }
      } catch (error) {
        return failure('gcFailed', `could not compact ${this.context.gitDir}: ${(error as Error).message}`)
      }
    })
  }

  /**
   * The paths that differ between checkpoint `from` and checkpoint `to` (both sides of a rename),
   * or the working tree as it is now when `to` is omitted. No patch is built, so it stays cheap.
   */
  changedPaths(from: string, to?: string): Promise<CheckpointResult<string[]>> {
    return this.serialized(async () => {
      const fromTree = await this.treeOf(from)
      if (fromTree === undefined)
        return failure('unknownCheckpoint', `no checkpoint ${from} in ${this.context.gitDir}`)
      let toTree: string | undefined
      if (to === undefined) {
        const now = await this.snapshotNow('the working tree')
        if (!now.ok) return now
        toTree = now.value.tree
      } else toTree = await this.treeOf(to)
      if (toTree === undefined)
        return failure('unknownCheckpoint', `no checkpoint ${to} in ${this.context.gitDir}`)
      const names = splitNul(
        await gitOk(this.context, ['diff-tree', '-r', '-z', '--no-renames', '--name-only', fromTree, toTree]),
      )
      return { ok: true, value: names.filter((name) => name !== '' && !this.isExcluded(name)) }
    })
  }

  /**
   * Names a checkpoint (`refs/z-engine/marks/<name>`), e.g. the tree as a turn left it, so later
   * work can tell what that turn changed. Marked checkpoints are kept by `compact`.
   */
  mark(name: string, commit: string): Promise<CheckpointResult<void>> {
    return this.serialized(async () => {
      if (!MARK_NAME.test(name)) return failure('badName', `'${name}' is not a valid checkpoint mark name`)
      const failed = await this.updateRefs([{ ref: `${MARK_PREFIX}${name}`, to: commit }])
      return failed === undefined
        ? { ok: true, value: undefined }
        : failure('markFailed', `could not mark ${commit} as ${name}: ${failed}`)
    })
  }

  /** Removes a mark (nothing to do when there is none); the checkpoint itself stays. */
  unmark(name: string): Promise<CheckpointResult<void>> {
    return this.serialized(async () => {
      if (!MARK_NAME.test(name)) return failure('badName', `'${name}' is not a valid checkpoint mark name`)
      const done = await runGit(this.context, ['update-ref', '-d', `${MARK_PREFIX}${name}`])
      return done.code === 0
        ? { ok: true, value: undefined }
        : failure('markFailed', `could not remove the mark ${name}: ${done.stderr.toString().trim()}`)
    })
  }

  /** The checkpoint a name marks, or undefined when there is none. */
  marked(name: string): Promise<string | undefined> {
    return this.serialized(async () => {
      if (!MARK_NAME.test(name)) return undefined
      const found = await runGit(this.context, [
        'rev-parse',
        '-q',
        '--verify',
        `${MARK_PREFIX}${name}^{commit}`,
      ])
      return found.code === 0 ? found.stdout.toString('utf8').trim() : undefined
    })
  }

  /**
   * Snapshots the working tree and marks the result in one step (see {@link mark}); the mark
   * names the same commit as the previous checkpoint when nothing changed.
   */
  snapshotAndMark(name: string, message: string): Promise<CheckpointResult<CheckpointSnapshot>> {
    return this.serialized(async () => {
      if (!MARK_NAME.test(name)) return failure('badName', `'${name}' is not a valid checkpoint mark name`)
      // A new checkpoint and its mark are written in one ref transaction (one git process).
      const snapshot = await this.snapshotNow(message, `${MARK_PREFIX}${name}`)
      if (!snapshot.ok || !snapshot.value.reused) return snapshot
      const failed = await this.updateRefs([{ ref: `${MARK_PREFIX}${name}`, to: snapshot.value.commit }])
      if (failed !== undefined)
        return failure('markFailed', `could not mark ${snapshot.value.commit} as ${name}: ${failed}`)
      return snapshot
    })
  }

  /** The differences from checkpoint `from` to checkpoint `to`, with renames. */
  diff(from: string, to: string): Promise<CheckpointResult<CheckpointDiff>> {
    return this.serialized(async () => {
      const fromTree = await this.treeOf(from)
      const toTree = await this.treeOf(to)
      if (fromTree === undefined || toTree === undefined) {
        return failure(
          'unknownCheckpoint',
          `no checkpoint ${fromTree === undefined ? from : to} in ${this.context.gitDir}`,
        )
      }
      return { ok: true, value: await this.treeDiff(fromTree, toTree) }
    })
  }

  /**
   * What restoring `commit` would change in the working tree as it is now (the rewind preview):
   * the current tree is checkpointed (reusing the last checkpoint when nothing changed), then
   * diffed against `commit`.
   */
  previewRestore(commit: string): Promise<CheckpointResult<CheckpointDiff>> {
    return this.serialized(async () => {
      const target = await this.treeOf(commit)
      if (target === undefined)
        return failure('unknownCheckpoint', `no checkpoint ${commit} in ${this.context.gitDir}`)
      const current = await this.snapshotNow(`before previewing ${commit}`)
      if (!current.ok) return current
      return { ok: true, value: await this.treeDiff(current.value.tree, target) }
    })
  }

  private isExcluded(path: string): boolean {
    return this.exclude?.(path) === true
  }

  private async treeDiff(fromTree: string, toTree: string): Promise<CheckpointDiff> {
    const names = splitNul(
      await gitOk(this.context, ['diff-tree', '-r', '-z', '-M', '--name-status', fromTree, toTree]),
    )
    const files: CheckpointFileChange[] = []
    for (let index = 0; index < names.length; ) {
      const code = names[index] ?? ''
      if (code.startsWith('R') || code.startsWith('C')) {
        files.push({ status: 'renamed', oldPath: names[index + 1] ?? '', path: names[index + 2] ?? '' })
        index += 3
      } else {
        files.push({ status: STATUS[code] ?? 'modified', path: names[index + 1] ?? '' })
        index += 2
      }
    }
    // Excluded files (in checkpoints taken before their rule) stay out of the list and the patch.
    const shown = files.filter(
      (file) => !this.isExcluded(file.path) && (file.oldPath === undefined || !this.isExcluded(file.oldPath)),
    )
    if (shown.length === 0) return { files: [], patch: '' }
    const pathspecs =
      shown.length === files.length
        ? []
        : [
            '--',
            ...new Set(
              shown.flatMap((file) => [file.path, ...(file.oldPath !== undefined ? [file.oldPath] : [])]),
            ),
          ]
    const patch = await gitOk(
      this.context,
      ['diff-tree', '-p', '-M', '--no-color', '--no-ext-diff', fromTree, toTree, ...pathspecs],
      { env: { GIT_LITERAL_PATHSPECS: '1' } },
    )
    return { files: shown, patch: patch.toString('utf8') }
  }

  /** `alsoRef`: a ref to point at a new checkpoint in the same transaction (not moved on reuse). */
  private async snapshotNow(
    message: string,
    alsoRef?: string,
  ): Promise<CheckpointResult<CheckpointSnapshot>> {
    try {
      // Forget what the index held until the new tree is written: a failed pass leaves it unknown.
      const known = this.indexTree
      this.indexTree = undefined
      const kept = this.indexPaths
      this.indexPaths = undefined
      const paths: KnownIndexPaths = {
        paths: kept !== undefined && kept.stamp === (await this.indexStamp()) ? kept.paths : undefined,
      }
      const staged = await this.stageWithRetry(paths)
      // Nothing reported changed and the index file is the one we last wrote (no other process
      // touched it): the tree is known, so skip write-tree.
      const reusable =
        staged.changed === 0 &&
        staged.nestedRepos.length === 0 &&
        known !== undefined &&
        known.stamp === (await this.indexStamp())
      const tree = reusable ? known.tree : (await gitOk(this.context, ['write-tree'])).toString('utf8').trim()
      this.indexTree = { tree, stamp: await this.indexStamp() }
      if (paths.paths !== undefined) this.indexPaths = { paths: paths.paths, stamp: this.indexTree.stamp }
      // Another session on the same project may have moved the ref; compare-and-swap, retry once.
      for (let attempt = 0; ; attempt++) {
        const head = await this.readHead()
        if (head !== undefined && head.tree === tree) {
          return {
            ok: true,
            value: { commit: head.commit, tree, reused: true, skippedLarge: staged.skippedLarge },
          }
        }
        const commit = await this.commitTree(tree, head?.commit, message)
        // Compare-and-swap of the head, plus `alsoRef`, all or nothing.
        const swapped = await this.updateRefs([
          { ref: HEAD_REF, to: commit, from: head?.commit ?? ZERO_ID },
          ...(alsoRef !== undefined ? [{ ref: alsoRef, to: commit }] : []),
        ])
        if (swapped === undefined) {
          this.head = { commit, tree }
          return { ok: true, value: { commit, tree, reused: false, skippedLarge: staged.skippedLarge } }
        }
        if (attempt >= 3) throw new Error(`could not move ${HEAD_REF}: ${swapped}`)
      }
    } catch (error) {
      if (error instanceof StageBudgetError) {
        return failure(
          'overBudget',
          `${this.context.workTree} has ${error.message}, beyond the checkpoint budget; raise checkpoints.max_files or checkpoints.max_mb to capture it`,
        )
      }
      return failure(
        'snapshotFailed',
        `could not snapshot ${this.context.workTree}: ${(error as Error).message}`,
      )
    }
  }

  /**
   * Stages the work tree, retrying when a file vanished between listing and adding it (a build or
   * a background shell deleting temp files meanwhile makes `git add` fail on that path).
   */
  private async stageWithRetry(known: KnownIndexPaths): Promise<StageReport> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await stageWorkTree(this.context, this.maxFileBytes, this.budget, this.exclude, known)
      } catch (error) {
        // A failed pass may have changed the index part way: list its paths again.
        known.paths = undefined
        const vanished =
          error instanceof GitCommandError && /did not match any files|No such file/.test(error.stderr)
        if (!vanished || attempt >= 3) throw error
      }
    }
  }

  /** `git commit-tree`, written in process when the repository allows (see loose-objects.ts). */
  private async commitTree(tree: string, parent: string | undefined, message: string): Promise<string> {
    const written = await writeLooseCommit(this.context.gitDir, {
      tree,
      ...(parent !== undefined ? { parent } : {}),
      message,
      ident: COMMIT_IDENT,
    })
    if (written !== undefined) return written
    const parentArgs = parent !== undefined ? ['-p', parent] : []
    return (await gitOk(this.context, ['commit-tree', tree, ...parentArgs, '-m', message]))
      .toString('utf8')
      .trim()
  }

  /**
   * Moves refs all or nothing (`from`: compare-and-swap); undefined when done, else why not. In
   * process when the refs are loose, else with `git update-ref --stdin`.
   */
  private async updateRefs(updates: readonly RefUpdate[]): Promise<string | undefined> {
    const result = await updateLooseRefs(this.context.gitDir, updates)
    if (result === 'updated') return undefined
    if (result === 'conflict') return 'the ref moved meanwhile or is locked by another process'
    const input = updates
      .map(
        (update) =>
          `update ${update.ref} ${update.to}${update.from !== undefined ? ` ${update.from}` : ''}\n`,
      )
      .join('')
    const done = await runGit(this.context, ['update-ref', '--stdin'], { input })
    return done.code === 0 ? undefined : done.stderr.toString().trim()
  }

  /** Size, mtime and inode of the shadow index: changes whenever any git process rewrites it. */
  private async indexStamp(): Promise<string> {
    const info = await stat(join(this.context.gitDir, 'index')).catch(() => undefined)
    return info === undefined ? 'none' : `${info.ino}:${info.size}:${info.mtimeMs}`
  }

  /** The newest checkpoint, read from the loose ref file (cheap), resolving its tree only when it moved. */
  private async readHead(): Promise<{ commit: string; tree: string } | undefined> {
    const loose = await readFile(join(this.context.gitDir, HEAD_REF), 'utf8').catch(() => undefined)
    let commit = loose?.trim()
    if (commit === undefined || !/^[0-9a-f]{40,64}$/.test(commit)) {
      const head = await runGit(this.context, ['rev-parse', '-q', '--verify', `${HEAD_REF}^{commit}`])
      if (head.code !== 0) return undefined
      commit = head.stdout.toString('utf8').trim()
    }
    if (this.head?.commit === commit) return this.head
    const tree = (await looseCommitTree(this.context.gitDir, commit)) ?? (await this.treeOf(commit))
    this.head = tree === undefined ? undefined : { commit, tree }
    return this.head
  }

  private async treeOf(commit: string): Promise<string | undefined> {
    if (!/^[0-9a-f]{4,64}$/.test(commit)) return undefined
    const output = await runGit(this.context, ['rev-parse', '-q', '--verify', `${commit}^{tree}`])
    return output.code === 0 ? output.stdout.toString('utf8').trim() : undefined
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work)
    this.queue = next.catch(() => undefined)
    return next
  }
}

const STATUS: Record<string, CheckpointFileChange['status']> = {
  A: 'added',
  M: 'modified',
  D: 'deleted',
  T: 'typeChanged',
}

/** Whether `gitDir` has what git requires of a repository: `HEAD`, `config`, `objects/`, `refs/`. */
async function looksLikeRepository(gitDir: string): Promise<boolean> {
  const kinds = await Promise.all(
    ['HEAD', 'config', 'objects', 'refs'].map((name) => stat(join(gitDir, name)).catch(() => undefined)),
  )
  const [head, config, objects, refs] = kinds
  return (
    head?.isFile() === true &&
    config?.isFile() === true &&
    objects?.isDirectory() === true &&
    refs?.isDirectory() === true
  )
}

/**
 * The tree of a commit stored as a loose object (how `commit-tree` writes one), read from its
 * zlib-compressed file (`commit <size>\0tree <id>\n…`) without starting git; undefined when the
 * object is packed (after `compact`) or unreadable, and the caller asks git.
 */
async function looseCommitTree(gitDir: string, commit: string): Promise<string | undefined> {
  if (!/^[0-9a-f]{40,64}$/.test(commit)) return undefined
  try {
    const stored = await readFile(join(gitDir, 'objects', commit.slice(0, 2), commit.slice(2)))
    const head = inflateSync(stored).subarray(0, 200).toString('latin1')
    const match = /^commit \d+\0tree ([0-9a-f]{40,64})\n/.exec(head)
    return match?.[1]
  } catch {
    return undefined
  }
}

function failure<T>(code: string, message: string): CheckpointResult<T> {
  return { ok: false, error: { code, message } }
}
