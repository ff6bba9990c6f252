import { spawn } from 'node:child_process'
import { absolutePathEntries } from '../process/env-policy.js'

/** How to run git against the shadow repository. */
export interface GitContext {
  /** The git executable (default `git`, found on PATH). */
  gitPath: string
  /** The shadow repository (`GIT_DIR`). */
  gitDir: string
  /** The tree being snapshotted (`GIT_WORK_TREE`). */
  workTree: string
  /** Index file; defaults to the shadow repository's own `index`. */
  indexFile?: string
  /** An excludes file to honour besides `.gitignore` files (the project's `.git/info/exclude`). */
  excludesFile?: string
  /** The environment git starts from; `GIT_*` variables in it are dropped. */
  baseEnv: Readonly<Record<string, string | undefined>>
}

/** What one git command produced. */
export interface GitOutput {
  code: number
  stdout: Buffer
  stderr: string
  /** True when git was stopped at `maxRecords` (stdout then holds only part of the listing). */
  truncated?: boolean
}

// Settings that make the shadow repository behave the same whatever the user's config says,
// and keep git from running anything of the user's (hooks, fsmonitor daemons, credential helpers).
const FIXED_CONFIG = [
  'core.autocrlf=false',
  'core.safecrlf=false',
  'core.eol=lf',
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  // What else a repository's config could make git run (issue 34), as on auto-allowed lines.
  'core.pager=cat',
  'core.sshCommand=false',
  'diff.external=',
  'gpg.program=false',
  'submodule.recurse=false',
  'core.quotePath=false',
  'core.symlinks=true',
  'core.fileMode=true',
  'core.ignoreCase=false',
  'core.precomposeUnicode=false',
  'core.untrackedCache=false',
  'commit.gpgSign=false',
  'gc.auto=0',
  'safe.directory=*',
  'user.name=z-engine',
  'user.email=checkpoints@z-engine.invalid',
  'advice.addEmbeddedRepo=false',
]

/** The environment git runs with: no `GIT_*` from the caller, no system or global config. */
export function gitEnvironment(context: GitContext, extra?: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(context.baseEnv)) {
    if (value !== undefined && !key.startsWith('GIT_')) env[key] = value
  }
  // `git` is looked up in this PATH: never in a relative entry (the project's own `./git`).
  if (env.PATH !== undefined) env.PATH = absolutePathEntries(env.PATH)
  env.GIT_CONFIG_NOSYSTEM = '1'
  env.GIT_CONFIG_GLOBAL = '/dev/null'
  env.GIT_TERMINAL_PROMPT = '0'
  env.GIT_OPTIONAL_LOCKS = '0'
  // HOME and XDG_CONFIG_HOME point at the shadow repo so no ~/.gitconfig or ~/.config/git/ignore applies.
  env.HOME = context.gitDir
  env.XDG_CONFIG_HOME = context.gitDir
  env.LC_ALL = 'C'
  env.GIT_DIR = context.gitDir
  env.GIT_WORK_TREE = context.workTree
  if (context.indexFile !== undefined) env.GIT_INDEX_FILE = context.indexFile
  return { ...env, ...extra }
}

/** Per-command options. */
export interface GitRunOptions {
  input?: Buffer | string
  env?: Record<string, string>
  /** Run without a work tree (`git init --bare` refuses one). */
  noWorkTree?: boolean
  /**
   * For NUL-separated listings (`-z`): stop git once stdout holds more than this many records, so
   * listing a huge tree never runs away; the output is then `truncated`.
   */
  maxRecords?: number
}

function withoutWorkTree(env: NodeJS.ProcessEnv, drop: boolean): NodeJS.ProcessEnv {
  if (!drop) return env
  const { GIT_WORK_TREE: _workTree, GIT_DIR: _gitDir, ...rest } = env
  return rest
}

/** Runs one git command; resolves with its exit code and output, rejects only if git cannot start. */
export function runGit(
  context: GitContext,
  args: readonly string[],
  options: GitRunOptions = {},
): Promise<GitOutput> {
  const config = [...FIXED_CONFIG]
  config.push(`core.excludesFile=${context.excludesFile ?? '/dev/null'}`)
  const fullArgs = [
    ...config.flatMap((entry) => ['-c', entry]),
    ...(options.noWorkTree ? [] : [`--git-dir=${context.gitDir}`]),
    ...(options.noWorkTree ? [] : [`--work-tree=${context.workTree}`]),
    ...args,
  ]
  return new Promise((resolve, reject) => {
    const child = spawn(context.gitPath, fullArgs, {
      cwd: context.workTree,
      env: withoutWorkTree(gitEnvironment(context, options.env), options.noWorkTree === true),
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    let records = 0
    let truncated = false
    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) return
      stdout.push(chunk)
      if (options.maxRecords === undefined) return
      for (let at = chunk.indexOf(0); at !== -1; at = chunk.indexOf(0, at + 1)) records++
      if (records > options.maxRecords) {
        truncated = true
        child.kill('SIGKILL')
      }
    })
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      resolve({
        code: code ?? -1,
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr).toString('utf8'),
        ...(truncated ? { truncated } : {}),
      })
    })
    // git may exit before reading stdin (e.g. on a usage error); that EPIPE is not our failure.
    child.stdin.on('error', () => undefined)
    child.stdin.end(options.input ?? '')
  })
}

/** A git command that failed, as an error value. */
export class GitCommandError extends Error {
  readonly code = 'gitFailed'
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number,
    readonly stderr: string,
  ) {
    super(`git ${args.slice(0, 2).join(' ')} failed (exit ${exitCode}): ${stderr.trim().slice(0, 500)}`)
  }
}

/** Runs git and returns stdout, throwing {@link GitCommandError} on a non-zero exit. */
export async function gitOk(
  context: GitContext,
  args: readonly string[],
  options: GitRunOptions = {},
): Promise<Buffer> {
  let output = await runGit(context, args, options)
  // Another process (a second session on the same project) may hold the shadow index briefly.
  for (
    let attempt = 1;
    output.code !== 0 && isLockContention(output.stderr) && attempt <= LOCK_RETRIES;
    attempt++
  ) {
    await new Promise((resolve) => setTimeout(resolve, 25 * attempt))
    output = await runGit(context, args, options)
  }
  if (output.code !== 0) throw new GitCommandError(args, output.code, output.stderr)
  return output.stdout
}

const LOCK_RETRIES = 12

function isLockContention(stderr: string): boolean {
  return /\.lock': File exists/.test(stderr)
}

/** Splits NUL-terminated git output into strings. */
export function splitNul(output: Buffer): string[] {
  const text = output.toString('utf8')
  const parts = text.split('\0')
  if (parts.at(-1) === '') parts.pop()
  return parts
}
