/** One entry of a repository's git configuration, as `git config --list --includes --show-scope` prints it. */
export interface GitConfigEntry {
  /** `system`, `global`, `local`, `worktree` or `command`. */
  scope: string
  /** The key, lower-cased as git prints it except for the subsection (`diff.<driver>.textconv`). */
  key: string
}

/**
 * Keys a repository can set that make git run a program on read-only commands and that the engine
 * neutralises on every line it runs confined (host's `NEUTRAL_GIT_ENV` overrides them from the
 * command line, which wins over any file): listed for docs/permissions.md.
 */
export const NEUTRALISED_GIT_KEYS: readonly string[] = [
  'core.fsmonitor',
  'core.hooksPath',
  'core.pager',
  'pager.<command>',
  'core.sshCommand',
  'diff.external',
  'gpg.program',
  'gpg.<format>.program',
  'log.showSignature',
  'diff.ignoreSubmodules',
  'diff.submodule',
  'status.submoduleSummary',
  'submodule.recurse',
]

/**
 * Keys whose program cannot be switched off by a fixed override, because the repository chooses the
 * name (a diff/filter/merge driver), brings in more configuration (includes), points git at another
 * work tree, or hands work to submodules whose configuration the decision did not read. In a
 * repository whose own configuration sets one of them, git is not proven read-only.
 */
const REPOSITORY_PROGRAMS: ReadonlyArray<readonly [pattern: RegExp, why: string]> = [
  [/^diff\..+\.(command|textconv)$/, 'a diff driver program'],
  [/^filter\..+\.(clean|smudge|process)$/, 'a filter driver program'],
  [/^merge\..+\.driver$/, 'a merge driver program'],
  [/^include\.path$|^includeif\..+\.path$/, 'an include (more configuration the decision did not read)'],
  [/^core\.worktree$/, 'another work tree'],
  [/^submodule\./, 'submodules, whose own configuration may name programs'],
]

/** Scopes that belong to the repository (what a downloaded project brings), not to the user. */
const REPOSITORY_SCOPES = new Set(['local', 'worktree'])

/**
 * Why git cannot be proven read-only in a repository with this configuration (the first key its
 * own configuration sets that lets it choose a program), or undefined.
 */
export function repositoryGitProgram(entries: readonly GitConfigEntry[]): string | undefined {
  for (const entry of entries) {
    if (!REPOSITORY_SCOPES.has(entry.scope)) continue
    const key = entry.key.toLowerCase()
    for (const [pattern, why] of REPOSITORY_PROGRAMS)
      if (pattern.test(key)) return `the repository's git config sets ${entry.key} (${why})`
  }
  return undefined
}
