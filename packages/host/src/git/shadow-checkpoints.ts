import { lstat, readFile, realpath, stat, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { commitTree, treeOf, updateRefs } from './checkpoint-refs.js'
import { treeDiff } from './checkpoint-tree-diff.js'
import {
  type CheckpointDiff,
  type CheckpointResult,
  type CheckpointSnapshot,
  checkpointFailure,
  DEFAULT_MAX_CHECKPOINT_BYTES,
  DEFAULT_MAX_CHECKPOINT_FILE_BYTES,
  DEFAULT_MAX_CHECKPOINT_FILES,
  type HunkRevert,
  type RestoreOptions,
  type RestoreReport,
  type ShadowCheckpointsOptions,
} from './checkpoint-types.js'
import { GitCommandError, type GitContext, gitOk, runGit, splitNul } from './git-runner.js'
import { type MergeConflict, mergeThreeWay } from './merge-file.js'
import { projectExcludesFile } from './project-excludes.js'
import { applyTreeChanges, treeChanges } from './restore-tree.js'
import { looseCommitTree, prepareShadowRepository } from './shadow-repository.js'
import {
  type ExcludePath,
  type KnownIndexPaths,
  type StageBudget,
  StageBudgetError,
  type StageReport,
  stageWorkTree,
} from './stage.js'

/** The ref holding the newest checkpoint; every checkpoint is reachable from it (parent chain). */
const HEAD_REF = 'refs/z-engine/checkpoints'
const ZERO_ID = '0000000000000000000000000000000000000000'
const MARK_PREFIX = 'refs/z-engine/marks/'
const MARK_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

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
    private readonly excludesAny: (() => boolean) | undefined,
  ) {}

  /** Opens (creating if needed) the shadow repository of a project. */
  static async open(options: ShadowCheckpointsOptions): Promise<CheckpointResult<ShadowCheckpoints>> {
    let projectRoot = resolve(options.projectRoot)
    try {
      if (!(await stat(projectRoot)).isDirectory()) {
        return checkpointFailure('notADirectory', `${projectRoot} is not a directory`)
      }
      // The real path, so a project opened through a symlink is the same work tree.
      projectRoot = await realpath(projectRoot)
    } catch {
      return checkpointFailure('notFound', `project root ${projectRoot} does not exist`)
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
      await prepareShadowRepository(context)
    } catch (error) {
      return checkpointFailure(
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
        options.excludesAny,
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
      const target = await treeOf(this.context, commit)
      if (target === undefined)
        return checkpointFailure('unknownCheckpoint', `no checkpoint ${commit} in ${this.context.gitDir}`)
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
        return checkpointFailure('restoreFailed', text)
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
        return checkpointFailure(
          'gcFailed',
          `could not compact ${this.context.gitDir}: ${(error as Error).message}`,
        )
      }
    })
  }

  /**
   * The paths that differ between checkpoint `from` and checkpoint `to` (both sides of a rename),
   * or the working tree as it is now when `to` is omitted. No patch is built, so it stays cheap.
   */
  changedPaths(from: string, to?: string): Promise<CheckpointResult<string[]>> {
    return this.serialized(async () => {
      const fromTree = await treeOf(this.context, from)
      if (fromTree === undefined)
        return checkpointFailure('unknownCheckpoint', `no checkpoint ${from} in ${this.context.gitDir}`)
      let toTree: string | undefined
      if (to === undefined) {
        const now = await this.snapshotNow('the working tree')
        if (!now.ok) return now
        toTree = now.value.tree
      } else toTree = await treeOf(this.context, to)
      if (toTree === undefined)
        return checkpointFailure('unknownCheckpoint', `no checkpoint ${to} in ${this.context.gitDir}`)
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
      if (!MARK_NAME.test(name))
        return checkpointFailure('badName', `'${name}' is not a valid checkpoint mark name`)
      const failed = await updateRefs(this.context, [{ ref: `${MARK_PREFIX}${name}`, to: commit }])
      return failed === undefined
        ? { ok: true, value: undefined }
        : checkpointFailure('markFailed', `could not mark ${commit} as ${name}: ${failed}`)
    })
  }

  /** Removes a mark (nothing to do when there is none); the checkpoint itself stays. */
  unmark(name: string): Promise<CheckpointResult<void>> {
    return this.serialized(async () => {
      if (!MARK_NAME.test(name))
        return checkpointFailure('badName', `'${name}' is not a valid checkpoint mark name`)
      const done = await runGit(this.context, ['update-ref', '-d', `${MARK_PREFIX}${name}`])
      return done.code === 0
        ? { ok: true, value: undefined }
        : checkpointFailure(
            'markFailed',
            `could not remove the mark ${name}: ${done.stderr.toString().trim()}`,
          )
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
      if (!MARK_NAME.test(name))
        return checkpointFailure('badName', `'${name}' is not a valid checkpoint mark name`)
      // A new checkpoint and its mark are written in one ref transaction (one git process).
      const snapshot = await this.snapshotNow(message, `${MARK_PREFIX}${name}`)
      if (!snapshot.ok || !snapshot.value.reused) return snapshot
      const failed = await updateRefs(this.context, [
        { ref: `${MARK_PREFIX}${name}`, to: snapshot.value.commit },
      ])
      if (failed !== undefined)
        return checkpointFailure(
          'markFailed',
          `could not mark ${snapshot.value.commit} as ${name}: ${failed}`,
        )
      return snapshot
    })
  }

  /** The differences from checkpoint `from` to checkpoint `to`, with renames. */
  diff(from: string, to: string): Promise<CheckpointResult<CheckpointDiff>> {
    return this.serialized(async () => {
      const fromTree = await treeOf(this.context, from)
      const toTree = await treeOf(this.context, to)
      if (fromTree === undefined || toTree === undefined) {
        return checkpointFailure(
          'unknownCheckpoint',
          `no checkpoint ${fromTree === undefined ? from : to} in ${this.context.gitDir}`,
        )
      }
      return {
        ok: true,
        value: await treeDiff(this.context, fromTree, toTree, (path) => this.isExcluded(path)),
      }
    })
  }

  /**
   * What restoring `commit` would change in the working tree as it is now (the rewind preview):
   * the current tree is checkpointed (reusing the last checkpoint when nothing changed), then
   * diffed against `commit`.
   */
  previewRestore(commit: string): Promise<CheckpointResult<CheckpointDiff>> {
    return this.serialized(async () => {
      const target = await treeOf(this.context, commit)
      if (target === undefined)
        return checkpointFailure('unknownCheckpoint', `no checkpoint ${commit} in ${this.context.gitDir}`)
      const current = await this.snapshotNow(`before previewing ${commit}`)
      if (!current.ok) return current
      return {
        ok: true,
        value: await treeDiff(this.context, current.value.tree, target, (path) => this.isExcluded(path)),
      }
    })
  }

  private isExcluded(path: string): boolean {
    return this.exclude?.(path) === true
  }

  /**
   * Brings the shadow index and its tree up to date with the working tree, as a snapshot would,
   * without making a checkpoint: a snapshot taken soon after then only has to find that nothing
   * changed since (one `git ls-files`) instead of staging and writing the tree itself. For work
   * that overlaps a wait (a model request after a batch that wrote files), so the snapshot that
   * follows it is short. A failure is reported and changes nothing a snapshot relies on.
   */
  stage(): Promise<CheckpointResult<void>> {
    return this.serialized(async () => {
      try {
        await this.stageNow()
        return { ok: true, value: undefined }
      } catch (error) {
        return this.snapshotFailure(error)
      }
    })
  }

  /** Stages the working tree and writes (or reuses) the index's tree; the tree and what was left out. */
  private async stageNow(): Promise<{ tree: string; skippedLarge: string[] }> {
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
    return { tree, skippedLarge: staged.skippedLarge }
  }

  /** `alsoRef`: a ref to point at a new checkpoint in the same transaction (not moved on reuse). */
  private async snapshotNow(
    message: string,
    alsoRef?: string,
  ): Promise<CheckpointResult<CheckpointSnapshot>> {
    try {
      const staged = await this.stageNow()
      const tree = staged.tree
      // Another session on the same project may have moved the ref; compare-and-swap, retry once.
      for (let attempt = 0; ; attempt++) {
        const head = await this.readHead()
        if (head !== undefined && head.tree === tree) {
          return {
            ok: true,
            value: { commit: head.commit, tree, reused: true, skippedLarge: staged.skippedLarge },
          }
        }
        const commit = await commitTree(this.context, tree, head?.commit, message)
        // Compare-and-swap of the head, plus `alsoRef`, all or nothing.
        const swapped = await updateRefs(this.context, [
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
      return this.snapshotFailure(error)
    }
  }

  /** A failed snapshot (or staging pass) as the result callers get. */
  private snapshotFailure(error: unknown): CheckpointResult<never> {
    if (error instanceof StageBudgetError) {
      return checkpointFailure(
        'overBudget',
        `${this.context.workTree} has ${error.message}, beyond the checkpoint budget; raise checkpoints.max_files or checkpoints.max_mb to capture it`,
      )
    }
    return checkpointFailure(
      'snapshotFailed',
      `could not snapshot ${this.context.workTree}: ${(error as Error).message}`,
    )
  }

  /**
   * Stages the work tree, retrying when a file vanished between listing and adding it (a build or
   * a background shell deleting temp files meanwhile makes `git add` fail on that path).
   */
  private async stageWithRetry(known: KnownIndexPaths): Promise<StageReport> {
    // No rule can exclude anything: nothing to leave out, nothing captured earlier to drop.
    const exclude = this.excludesAny?.() === false ? undefined : this.exclude
    for (let attempt = 1; ; attempt++) {
      try {
        return await stageWorkTree(this.context, this.maxFileBytes, this.budget, exclude, known)
      } catch (error) {
        // A failed pass may have changed the index part way: list its paths again.
        known.paths = undefined
        const vanished =
          error instanceof GitCommandError && /did not match any files|No such file/.test(error.stderr)
        if (!vanished || attempt >= 3) throw error
      }
    }
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
    const tree = (await looseCommitTree(this.context.gitDir, commit)) ?? (await treeOf(this.context, commit))
    this.head = tree === undefined ? undefined : { commit, tree }
    return this.head
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work)
    this.queue = next.catch(() => undefined)
    return next
  }
}
