import { mkdir, realpath, rm, stat, writeFile } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import { GitCommandError, type GitContext, gitOk, runGit, splitNul } from './git-runner.js'

/** Where agent worktrees live, relative to the project root. */
export const AGENT_WORKTREES_DIR = join('.z-engine', 'worktrees')

/** A worktree operation's result; failures are values whose message says what to do. */
export type WorktreeResult<T> =
  | { ok: true; value: T }
  | { ok: false; error: { code: 'notGitRepository' | 'noCommit' | 'gitFailed'; message: string } }

/** How to reach git for a project. */
export interface WorktreeGitOptions {
  /** The git executable (default `git`). */
  gitPath?: string
  /** The environment git starts from (default `process.env`); `GIT_*` variables are dropped. */
  env?: Readonly<Record<string, string | undefined>>
}

/** The repository a project lives in. */
export interface ProjectRepository {
  /** The repository's top folder (the project root or one of its parents). */
  toplevel: string
  /** The absolute git directory. */
  gitDir: string
  /** The project root, canonical. */
  projectRoot: string
}

/** A created agent worktree. */
export interface AgentWorktree {
  /** The worktree's folder (`<project>/.z-engine/worktrees/<agent>`). */
  path: string
  /** The agent's branch (`zengine/<agent>`). */
  branch: string
  /** The commit it was created from. */
  base: string
  /** The agent's root: the worktree, or the project's subfolder within it. */
  root: string
}

/** What a finished worktree agent changed, once committed on its branch. */
export type WorktreeCommit =
  | { type: 'empty' }
  | { type: 'pending'; commit: string; changedFiles: string[]; summary: string }

/** The git context of a repository (explicit git dir and work tree). */
export function repositoryContext(repo: ProjectRepository, options: WorktreeGitOptions = {}): GitContext {
  return {
    gitPath: options.gitPath ?? 'git',
    gitDir: repo.gitDir,
    workTree: repo.toplevel,
    baseEnv: options.env ?? process.env,
  }
}

/** A context that lets git find the repository from `folder` (runs with `noWorkTree`). */
function discoveryContext(folder: string, options: WorktreeGitOptions): GitContext {
  return {
    gitPath: options.gitPath ?? 'git',
    gitDir: folder,
    workTree: folder,
    baseEnv: options.env ?? process.env,
  }
}

async function failed<T>(work: () => Promise<WorktreeResult<T>>): Promise<WorktreeResult<T>> {
  try {
    return await work()
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return { ok: false, error: { code: 'gitFailed', message } }
  }
}

/** Finds the git repository holding `projectRoot`; refuses (as a value) outside one. */
export async function findProjectRepository(
  projectRoot: string,
  options: WorktreeGitOptions = {},
): Promise<WorktreeResult<ProjectRepository>> {
  return failed(async () => {
    const root = resolve(projectRoot)
    const found = await runGit(
      discoveryContext(root, options),
      ['rev-parse', '--show-toplevel', '--absolute-git-dir'],
      { noWorkTree: true },
    )
    if (found.code !== 0) {
      return {
        ok: false,
        error: {
          code: 'notGitRepository',
          message: `${root} is not in a git repository, so the agent cannot get its own worktree; run \`git init\` and commit, or start the agent without worktree isolation.`,
        },
      }
    }
    const [toplevel = root, gitDir = join(root, '.git')] = found.stdout.toString('utf8').trim().split('\n')
    return { ok: true, value: { toplevel, gitDir, projectRoot: root } }
  })
}

/**
 * Creates `<project>/.z-engine/worktrees/<agentId>` on a new branch `zengine/<agentId>` from the
 * current HEAD. Only the branch and git's worktree bookkeeping are added; the user's index, branches
 * and working tree stay as they were.
 */
export async function createAgentWorktree(
  projectRoot: string,
  agentId: string,
  options: WorktreeGitOptions = {},
): Promise<WorktreeResult<AgentWorktree>> {
  const repo = await findProjectRepository(projectRoot, options)
  if (!repo.ok) return repo
  return failed(async () => {
    const context = repositoryContext(repo.value, options)
    const head = await runGit(context, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])
    if (head.code !== 0) {
      return {
        ok: false,
        error: {
          code: 'noCommit',
          message:
            'The repository has no commit yet, so there is nothing to branch a worktree from; commit first.',
        },
      }
    }
    const base = head.stdout.toString('utf8').trim()
    const path = join(repo.value.projectRoot, AGENT_WORKTREES_DIR, agentId)
    const branch = `zengine/${agentId}`
    const folder = join(repo.value.projectRoot, AGENT_WORKTREES_DIR)
    await mkdir(folder, { recursive: true })
    // Agent checkouts are copies of the project: the project's git status, searches and checkpoints
    // skip them. (Git inside a worktree reads no .gitignore above its own root.)
    await writeFile(join(folder, '.gitignore'), '*\n', { flag: 'wx' }).catch(() => undefined)
    await gitOk(context, ['worktree', 'add', '--quiet', '-b', branch, path, base])
    const inside = relative(repo.value.toplevel, repo.value.projectRoot)
    return { ok: true, value: { path, branch, base, root: inside === '' ? path : join(path, inside) } }
  })
}

/**
 * Re-opens an agent worktree recorded earlier (a chat reopened with a pending worktree): its base is
 * where its branch left the current HEAD. Refuses when the folder or branch is gone.
 */
export async function openAgentWorktree(
  projectRoot: string,
  recorded: { path: string; branch: string },
  options: WorktreeGitOptions = {},
): Promise<WorktreeResult<AgentWorktree>> {
  const repo = await findProjectRepository(projectRoot, options)
  if (!repo.ok) return repo
  return failed(async () => {
    await stat(recorded.path)
    const context = repositoryContext(repo.value, options)
    const base = (await gitOk(context, ['merge-base', 'HEAD', recorded.branch])).toString('utf8').trim()
    const inside = relative(repo.value.toplevel, repo.value.projectRoot)
    return {
      ok: true,
      value: { ...recorded, base, root: inside === '' ? recorded.path : join(recorded.path, inside) },
    }
  })
}

/**
 * Takes a folder someone else made (a WorktreeCreate hook) as an agent's worktree: it must be the
 * top of a linked worktree of the project's repository, on a branch, since the agent's changes are
 * committed, reviewed and merged as that branch. Its base is the commit it starts from.
 */
export async function adoptAgentWorktree(
  projectRoot: string,
  path: string,
  options: WorktreeGitOptions = {},
): Promise<WorktreeResult<AgentWorktree>> {
  const repo = await findProjectRepository(projectRoot, options)
  if (!repo.ok) return repo
  return failed(async () => {
    const refuse = (why: string): WorktreeResult<AgentWorktree> => ({
      ok: false,
      error: {
        code: 'gitFailed',
        message: `The WorktreeCreate hook's folder ${path} ${why}; Z Engine commits, reviews and applies a worktree agent's changes as a git branch, so the hook must create a worktree of this repository on its own branch (\`git worktree add -b <branch> <path>\`) and print its path.`,
      },
    })
    const context = discoveryContext(path, options)
    const found = await runGit(context, ['rev-parse', '--show-toplevel', '--git-common-dir', 'HEAD'], {
      noWorkTree: true,
    })
    if (found.code !== 0) return refuse('is not a git worktree')
    const [toplevel = '', commonDir = '', base = ''] = found.stdout.toString('utf8').trim().split('\n')
    // `--abbrev-ref` abbreviates every revision after it, so the branch is asked for on its own.
    const named = await runGit(context, ['rev-parse', '--abbrev-ref', 'HEAD'], { noWorkTree: true })
    const branch = named.code === 0 ? named.stdout.toString('utf8').trim() : ''
    const projectCommon = (
      await gitOk(repositoryContext(repo.value, options), ['rev-parse', '--git-common-dir'])
    )
      .toString('utf8')
      .trim()
    const [top, wanted, common, ours] = await Promise.all([
      realOr(toplevel),
      realOr(path),
      realOr(resolve(toplevel, commonDir)),
      realOr(resolve(repo.value.toplevel, projectCommon)),
    ])
    if (top !== wanted) return refuse(`is inside the worktree ${toplevel}, not its top folder`)
    if (common !== ours) return refuse(`belongs to another repository (${common})`)
    if (top === (await realOr(repo.value.toplevel))) return refuse('is the project itself')
    if (branch === 'HEAD' || branch === '') return refuse('is not on a branch (its HEAD is detached)')
    const inside = relative(repo.value.toplevel, repo.value.projectRoot)
    return { ok: true, value: { path, branch, base, root: inside === '' ? path : join(path, inside) } }
  })
}

function realOr(path: string): Promise<string> {
  return realpath(path).catch(() => resolve(path))
}

/** Commits everything the agent left in its worktree and summarizes its branch against `base`. */
export async function commitAgentWorktree(
  worktree: AgentWorktree,
  message: string,
  options: WorktreeGitOptions = {},
): Promise<WorktreeResult<WorktreeCommit>> {
  return failed<WorktreeCommit>(async () => {
    const context = discoveryContext(worktree.path, options)
    const run = (args: string[]) => gitOk(context, args, { noWorkTree: true })
    await run(['add', '-A', '--', '.'])
    const staged = await runGit(context, ['diff', '--cached', '--quiet'], { noWorkTree: true })
    if (staged.code === 1) await run(['commit', '--quiet', '--no-verify', '-m', message])
    else if (staged.code !== 0) throw new GitCommandError(['diff', '--cached'], staged.code, staged.stderr)
    const commit = (await run(['rev-parse', 'HEAD'])).toString('utf8').trim()
    const changedFiles = splitNul(
      await run(['diff', '--name-only', '-z', '--no-renames', worktree.base, commit]),
    )
    if (changedFiles.length === 0) return { ok: true, value: { type: 'empty' } }
    const summary = (await run(['diff', '--shortstat', worktree.base, commit])).toString('utf8').trim()
    return { ok: true, value: { type: 'pending', commit, changedFiles, summary } }
  })
}

/**
 * What an agent's branch changed since the commit its worktree started from, as a unified diff
 * (no external diff programs or text conversions: the repository's config chooses no program).
 */
export async function agentBranchDiff(
  projectRoot: string,
  worktree: Pick<AgentWorktree, 'branch' | 'base'>,
  options: WorktreeGitOptions = {},
): Promise<WorktreeResult<string>> {
  const repo = await findProjectRepository(projectRoot, options)
  if (!repo.ok) return repo
  return failed(async () => {
    const context = repositoryContext(repo.value, options)
    const diff = await gitOk(context, [
      'diff',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--no-renames',
      worktree.base,
      worktree.branch,
    ])
    return { ok: true, value: diff.toString('utf8') }
  })
}

/** Removes an agent's worktree folder and its branch (missing ones are fine). */
export async function removeAgentWorktree(
  projectRoot: string,
  worktree: Pick<AgentWorktree, 'path' | 'branch'>,
  options: WorktreeGitOptions = {},
): Promise<WorktreeResult<void>> {
  const repo = await findProjectRepository(projectRoot, options)
  if (!repo.ok) return repo
  return failed(async () => {
    const context = repositoryContext(repo.value, options)
    const exists = await stat(worktree.path).then(
      () => true,
      () => false,
    )
    if (exists) {
      const removed = await runGit(context, ['worktree', 'remove', '--force', '--force', worktree.path])
      // A folder git no longer knows as a worktree is still ours to delete (it is under .z-engine).
      if (removed.code !== 0 && isUnder(worktree.path, join(repo.value.projectRoot, AGENT_WORKTREES_DIR)))
        await rm(worktree.path, { recursive: true, force: true })
    }
    await gitOk(context, ['worktree', 'prune'])
    const branch = await runGit(context, ['branch', '-D', '--', worktree.branch])
    if (branch.code !== 0 && !/not found/.test(branch.stderr))
      throw new GitCommandError(['branch', '-D'], branch.code, branch.stderr)
    return { ok: true, value: undefined }
  })
}

function isUnder(path: string, folder: string): boolean {
  const inside = relative(folder, path)
  return inside !== '' && !inside.startsWith(`..${sep}`) && inside !== '..'
}

/**
 * Makes git forget agent worktrees whose folders are gone (a chat opening after a crash or a manual
 * delete); worktrees still on disk, pending ones included, stay. A no-op without agent worktrees.
 */
export async function pruneAgentWorktrees(
  projectRoot: string,
  options: WorktreeGitOptions = {},
): Promise<WorktreeResult<void>> {
  const folder = join(resolve(projectRoot), AGENT_WORKTREES_DIR)
  const exists = await stat(folder).then(
    () => true,
    () => false,
  )
  if (!exists) return { ok: true, value: undefined }
  const repo = await findProjectRepository(projectRoot, options)
  if (!repo.ok) return repo
  return failed(async () => {
    await gitOk(repositoryContext(repo.value, options), ['worktree', 'prune'])
    return { ok: true, value: undefined }
  })
}
