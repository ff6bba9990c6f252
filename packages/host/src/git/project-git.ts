import { execFile, execFileSync } from 'node:child_process'
import { absolutePathEntries } from '../process/env-policy.js'
import { withNeutralGit } from './neutral-git.js'

/**
 * How the engine runs git in a folder it does not control: the user's repository (untrusted until
 * trusted), whose `.git/config` may name programs. Every git call the engine and host make there
 * (listing files, reading config, finding the hooks folder) goes through {@link projectGit} or
 * {@link projectGitSync} (issue 34): `git ls-files` runs `core.fsmonitor`, and a downloaded project
 * can bring its `.git` folder. Checkpoints and worktrees use the git runner (`git-runner.ts`), which
 * fixes the same keys on the command line.
 */
export interface ProjectGitOptions {
  cwd: string
  /** The environment git starts from (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>
  /** Overrides to leave out because the call reads that key (`core.hooksPath`); it runs nothing. */
  kept?: readonly string[]
  /** Default 5 s. */
  timeoutMs?: number
  /** Default 64 MiB. */
  maxBuffer?: number
}

/** What one git call printed: `ok` on exit 0; otherwise its exit status (null when it did not run). */
export type ProjectGitResult =
  | { ok: true; stdout: string }
  | { ok: false; status: number | null; stdout: string }

/**
 * The environment of {@link ProjectGitOptions}: every program-running key neutralised on the
 * command line (`withNeutralGit`: `core.fsmonitor`, `core.hooksPath`, the pager, `diff.external`,
 * gpg, submodule recursion), no optional locks (a listing never rewrites the index) and no prompt.
 */
export function projectGitEnv(options: Pick<ProjectGitOptions, 'env' | 'kept'>): Record<string, string> {
  const { GIT_DIR: _dir, GIT_WORK_TREE: _tree, GIT_INDEX_FILE: _index, ...env } = options.env ?? process.env
  const neutral = withNeutralGit(env, options.kept ?? [])
  // `git` itself is looked up in this PATH: never in a relative entry (the project's own `./git`).
  if (neutral.PATH !== undefined) neutral.PATH = absolutePathEntries(neutral.PATH)
  return {
    ...neutral,
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
  }
}

function execOptions(options: ProjectGitOptions) {
  return {
    cwd: options.cwd,
    env: projectGitEnv(options),
    encoding: 'utf8' as const,
    timeout: options.timeoutMs ?? 5_000,
    maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
  }
}

/** Runs git hardened (see {@link ProjectGitOptions}) without blocking the thread. */
export function projectGit(args: readonly string[], options: ProjectGitOptions): Promise<ProjectGitResult> {
  return new Promise((resolve) => {
    execFile('git', [...args], execOptions(options), (error, stdout) => {
      const out = String(stdout ?? '')
      if (error === null) return resolve({ ok: true, stdout: out })
      const status = typeof error.code === 'number' ? error.code : null
      resolve({ ok: false, status, stdout: out })
    })
  })
}

/** {@link projectGit}, synchronously (a decision that needs the answer now). */
export function projectGitSync(args: readonly string[], options: ProjectGitOptions): ProjectGitResult {
  try {
    const stdout = execFileSync('git', [...args], {
      ...execOptions(options),
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    return { ok: true, stdout }
  } catch (error) {
    const failure = error as { status?: number | null; stdout?: string }
    return { ok: false, status: failure.status ?? null, stdout: String(failure.stdout ?? '') }
  }
}
