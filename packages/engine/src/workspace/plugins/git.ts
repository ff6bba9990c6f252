import { execFile } from 'node:child_process'
import { absolutePathEntries } from '@z-engine/host'

/** The outcome of one git command: its output, or what went wrong in words a user can act on. */
export type GitResult = { ok: true; stdout: string } | { ok: false; error: string }

/**
 * Configuration every marketplace and plugin git command runs with. Command-line config
 * (`GIT_CONFIG_PARAMETERS`) wins over every file, so nothing a cloned repository carries (its
 * `.gitattributes` naming LFS, its `.gitmodules`, hooks from a template folder) makes git run a
 * program or fetch more than we asked: no hooks, no fsmonitor, no submodules, no LFS smudging
 * (Claude Code's own git never downloads LFS content either).
 */
const PLUGIN_GIT_CONFIG: ReadonlyArray<readonly [key: string, value: string]> = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['submodule.recurse', 'false'],
  ['fetch.recurseSubmodules', 'false'],
  ['protocol.ext.allow', 'never'],
  ['filter.lfs.smudge', ''],
  ['filter.lfs.process', ''],
  ['filter.lfs.required', 'false'],
  ['advice.detachedHead', 'false'],
]

function quoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/** Who chose the URL git fetches: the user typing it, or a marketplace manifest naming it. */
export type GitUrlChooser = 'user' | 'manifest'

/**
 * The environment for plugin git commands: the caller's (the user's own git configuration applies,
 * for credentials of private repositories) with {@link PLUGIN_GIT_CONFIG} appended last so it wins,
 * prompts off so nothing waits on a terminal, and, for a URL a manifest chose,
 * `GIT_PROTOCOL_FROM_USER=0`: git then allows only https, ssh and git transports unless the user's
 * own config allows more (`protocol.file.allow=always`), so a marketplace cannot make us copy a
 * local repository.
 */
export function pluginGitEnv(
  env: Readonly<Record<string, string | undefined>>,
  chooser: GitUrlChooser,
): NodeJS.ProcessEnv {
  const ours = PLUGIN_GIT_CONFIG.map(([key, value]) => `${quoted(key)}=${quoted(value)}`).join(' ')
  const { GIT_CONFIG_COUNT: _count, GIT_DIR: _dir, GIT_WORK_TREE: _tree, ...rest } = env
  return {
    ...rest,
    // `git` is looked up in this PATH: never in a relative entry (the current folder's own `./git`).
    ...(rest.PATH !== undefined ? { PATH: absolutePathEntries(rest.PATH) } : {}),
    GIT_CONFIG_PARAMETERS: rest.GIT_CONFIG_PARAMETERS ? `${rest.GIT_CONFIG_PARAMETERS} ${ours}` : ours,
    GIT_TERMINAL_PROMPT: '0',
    GIT_LFS_SKIP_SMUDGE: '1',
    ...(chooser === 'manifest' ? { GIT_PROTOCOL_FROM_USER: '0' } : {}),
  }
}

/** Runs the system git for marketplaces and plugins (clone, fetch, pull) with {@link pluginGitEnv}. */
export function runSystemGit(
  args: readonly string[],
  options: {
    cwd?: string
    env: Readonly<Record<string, string | undefined>>
    chooser?: GitUrlChooser
    timeoutMs?: number
  },
): Promise<GitResult> {
  const env = pluginGitEnv(options.env, options.chooser ?? 'user')
  return new Promise((done) => {
    execFile(
      'git',
      [...args],
      {
        ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
        env,
        timeout: options.timeoutMs ?? 120_000,
      },
      (error, stdout, stderr) => {
        if (error === null) return done({ ok: true, stdout: String(stdout) })
        const code = (error as NodeJS.ErrnoException).code
        if (code === 'ENOENT')
          return done({ ok: false, error: 'git is not installed (install git and retry)' })
        const detail = String(stderr).trim().split('\n').slice(-3).join(' ') || error.message
        const hint = /transport '\w+' not allowed/.test(detail)
          ? ' (a marketplace may name only https, ssh or git URLs)'
          : ''
        done({ ok: false, error: `git ${args[0]} failed: ${detail}${hint}` })
      },
    )
  })
}
