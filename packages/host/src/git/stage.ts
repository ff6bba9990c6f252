import { randomBytes } from 'node:crypto'
import { lstat, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { GitCommandError, type GitContext, gitOk, runGit, splitNul } from './git-runner.js'
import { projectExcludesFile } from './project-excludes.js'

/** What staging found. */
export interface StageReport {
  /** Paths staged (added, changed or removed) in this pass. */
  changed: number
  /** Files left out because they exceed the size limit (relative paths). */
  skippedLarge: string[]
  /** Nested repositories whose files were captured for the first time (relative dirs). */
  nestedRepos: string[]
}

/** How much one staging pass may copy into the shadow repository. */
export interface StageBudget {
  /** Files (new, changed or removed) one pass may stage. */
  maxFiles: number
  /** Bytes of new or changed files one pass may copy. */
  maxBytes: number
}

/**
 * The paths the index held after the caller's last pass (a superset is fine), so that pass's
 * `ls-files --cached` need not run again: `paths` undefined means unknown (list them). Updated by
 * {@link stageWorkTree}; the caller forgets it whenever another process may have changed the index.
 */
export interface KnownIndexPaths {
  paths: Set<string> | undefined
}

/** A pass that would exceed its {@link StageBudget}; nothing was staged. */
export class StageBudgetError extends Error {}

/** Whether a path (relative to the work tree, `/`-separated) must never be captured. */
export type ExcludePath = (path: string) => boolean

// Literal pathspecs: file names with `*`, `:` or `[` are paths, not patterns.
const LITERAL = { GIT_LITERAL_PATHSPECS: '1' }
const STAT_BATCH = 128

/**
 * Brings the index of `context` in line with its work tree: new, changed and deleted files are
 * staged, ignored files (.gitignore, the project's info/exclude) and files above `maxFileBytes`
 * are left out. Only what `git ls-files` reports as changed is touched, so an unchanged tree costs
 * one stat walk.
 *
 * Nested repositories: git would store a directory holding its own `.git` as a gitlink (a commit
 * id, not its files), losing their content. Such a directory shows up in `ls-files --others` as
 * `dir/`; it is staged on its own (with a temporary index, recursively) and its tree is read into
 * this index under `dir/`. Once the index holds files under `dir/`, git treats it as a plain
 * directory, so later passes see its changes like any other file's. The nested `.git` itself is
 * never captured (git skips every entry named `.git`).
 *
 * `exclude` (files under Read deny rules) is never staged, and entries it matches are dropped from
 * the index, so a file captured before its rule existed leaves the next snapshot. The index's paths
 * come from `known` when the caller kept them from its last pass (issue 17: one git process less
 * per snapshot), else from `ls-files --cached`.
 */
export async function stageWorkTree(
  context: GitContext,
  maxFileBytes: number,
  budget?: StageBudget,
  exclude?: ExcludePath,
  known: KnownIndexPaths = { paths: undefined },
): Promise<StageReport> {
  const listArgs = ['ls-files', '-z', '--others', '--modified', '--deleted', '--exclude-standard']
  const listing = await runGit(context, listArgs, budget !== undefined ? { maxRecords: budget.maxFiles } : {})
  if (listing.truncated)
    throw new StageBudgetError(`more than ${budget!.maxFiles.toLocaleString('en-US')} files to capture`)
  if (listing.code !== 0) throw new GitCommandError(listArgs, listing.code, listing.stderr)
  const listed = splitNul(listing.stdout)
  const files = new Set<string>()
  const nested: string[] = []
  for (const path of listed) {
    if (path.endsWith('/')) nested.push(path.slice(0, -1))
    else if (exclude === undefined || !exclude(path)) files.add(path)
  }
  const skippedLarge: string[] = []
  const toStage: string[] = []
  const paths = [...files]
  let bytes = 0
  // Stat in parallel batches: a first snapshot lists every file of the project.
  for (let start = 0; start < paths.length; start += STAT_BATCH) {
    const batch = paths.slice(start, start + STAT_BATCH)
    const sizes = await Promise.all(batch.map((path) => fileSize(join(context.workTree, path))))
    batch.forEach((path, index) => {
      const size = sizes[index]
      if (size !== undefined && size > maxFileBytes) skippedLarge.push(path)
      else {
        toStage.push(path)
        bytes += size ?? 0
      }
    })
    if (budget !== undefined && bytes > budget.maxBytes)
      throw new StageBudgetError(`more than ${formatMiB(budget.maxBytes)} to capture`)
  }
  const dropped = exclude !== undefined ? await dropExcluded(context, exclude, known) : 0
  if (skippedLarge.length > 0) {
    // A file that grew past the limit leaves the snapshot rather than keeping a stale version.
    await gitOk(
      context,
      ['rm', '-q', '--cached', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'],
      {
        input: nulList(skippedLarge),
        env: LITERAL,
      },
    )
  }
  if (toStage.length > 0) {
    await gitOk(context, ['add', '-A', '-f', '--pathspec-from-file=-', '--pathspec-file-nul'], {
      input: nulList(toStage),
      env: LITERAL,
    })
  }
  for (const dir of nested) {
    const nestedExclude = exclude !== undefined ? (path: string) => exclude(`${dir}/${path}`) : undefined
    const report = await stageNestedRepo(context, dir, maxFileBytes, budget, nestedExclude)
    skippedLarge.push(...report.skippedLarge.map((path) => `${dir}/${path}`))
  }
  if (nested.length > 0) {
    // read-tree entries carry no stat data; refresh once so the next pass stays a cheap stat walk.
    await gitOk(context, ['update-index', '-q', '--refresh']).catch(() => undefined)
  }
  if (nested.length > 0) known.paths = undefined
  else if (known.paths !== undefined) {
    // Removed and skipped paths may stay in the set: a path not in the index costs nothing later.
    for (const path of toStage) known.paths.add(path)
  }
  return { changed: toStage.length + skippedLarge.length + dropped, skippedLarge, nestedRepos: nested }
}

/**
 * Removes excluded entries from the index (captured before their rule existed); returns how many.
 * Checks every indexed path each pass, as the rules may have changed since the last one.
 */
async function dropExcluded(
  context: GitContext,
  exclude: ExcludePath,
  known: KnownIndexPaths,
): Promise<number> {
  known.paths ??= new Set(splitNul(await gitOk(context, ['ls-files', '-z', '--cached'])))
  const excluded = [...known.paths].filter((path) => exclude(path))
  // update-index, not `rm --cached`: git rm refuses an entry staged but differing from the file.
  // (A path already gone from the index is no error.)
  if (excluded.length > 0)
    await gitOk(context, ['update-index', '-z', '--force-remove', '--stdin'], { input: nulList(excluded) })
  for (const path of excluded) known.paths.delete(path)
  return excluded.length
}

async function stageNestedRepo(
  context: GitContext,
  dir: string,
  maxFileBytes: number,
  budget: StageBudget | undefined,
  exclude: ExcludePath | undefined,
): Promise<StageReport> {
  const indexFile = join(context.gitDir, `index-nested-${randomBytes(6).toString('hex')}`)
  const workTree = join(context.workTree, dir)
  const excludesFile = await projectExcludesFile(workTree)
  const nestedContext: GitContext = {
    ...context,
    workTree,
    indexFile,
    ...(excludesFile !== undefined ? { excludesFile } : {}),
  }
  try {
    const report = await stageWorkTree(nestedContext, maxFileBytes, budget, exclude)
    const tree = (await gitOk(nestedContext, ['write-tree'])).toString('utf8').trim()
    await gitOk(context, ['read-tree', `--prefix=${dir}/`, tree])
    return report
  } finally {
    await rm(indexFile, { force: true })
  }
}

async function fileSize(path: string): Promise<number | undefined> {
  try {
    const info = await lstat(path)
    return info.isFile() ? info.size : undefined
  } catch {
    return undefined
  }
}

function formatMiB(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024)).toLocaleString('en-US')} MiB`
}

function nulList(paths: readonly string[]): Buffer {
  return Buffer.from(paths.map((path) => `${path}\0`).join(''))
}
