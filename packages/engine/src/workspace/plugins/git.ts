import { execFile } from 'node:child_process'

/** The outcome of one git command: its output, or what went wrong in words a user can act on. */
export type GitResult = { ok: true; stdout: string } | { ok: false; error: string }

/**
 * Runs the system git for marketplaces and plugins (clone, pull). The user's own git configuration
 * applies (credentials for private repositories); prompts are off so nothing waits on a terminal.
 */
export function runSystemGit(
  args: readonly string[],
  options: { cwd?: string; env: Readonly<Record<string, string | undefined>>; timeoutMs?: number },
): Promise<GitResult> {
  const env: NodeJS.ProcessEnv = { ...options.env, GIT_TERMINAL_PROMPT: '0' }
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
        done({ ok: false, error: `git ${args[0]} failed: ${detail}` })
      },
    )
  })
}
