/**
 * Configuration every command the policy auto-allowed runs with (issue 34): command-line config
 * (`GIT_CONFIG_PARAMETERS`) wins over every file, so a repository's `.git/config` cannot make a
 * proven `git status`/`git diff`/`git log` run a program through these keys. Keys naming a driver
 * (`diff.<driver>.textconv`, `filter.<driver>.*`, …) cannot be overridden without knowing the
 * name; the policy does not prove git in a repository that sets them.
 */
const NEUTRAL_GIT_CONFIG: ReadonlyArray<readonly [key: string, value: string]> = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.sshCommand', 'false'],
  ['diff.external', ''],
  ['log.showSignature', 'false'],
  ['gpg.program', 'false'],
  ['gpg.openpgp.program', 'false'],
  ['gpg.x509.program', 'false'],
  ['gpg.ssh.program', 'false'],
  // A nested repository the index records as a gitlink is a submodule to status and diff, with no
  // `submodule.*` in the parent's config: they run git in it, under its own config (a filter
  // driver). `dirty` still shows a submodule's new commit, never looks into its work tree.
  ['diff.ignoreSubmodules', 'dirty'],
  ['diff.submodule', 'short'],
  ['status.submoduleSummary', 'false'],
  ['submodule.recurse', 'false'],
]

function quoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/**
 * The environment variables that neutralise a repository's program-running git keys: the
 * overrides above, `GIT_PAGER=cat` (it wins over `pager.<command>`), `GIT_EXTERNAL_DIFF` unset by
 * the empty `diff.external`, and `GIT_CONFIG_NOSYSTEM=1` (the system file is not what the decision read).
 */
export const NEUTRAL_GIT_ENV: Readonly<Record<string, string>> = neutralGitEnv([])

/** {@link NEUTRAL_GIT_ENV} without the overrides of `kept` keys (a lookup that must read them). */
function neutralGitEnv(kept: readonly string[]): Record<string, string> {
  return {
    GIT_CONFIG_PARAMETERS: NEUTRAL_GIT_CONFIG.filter(([key]) => !kept.includes(key))
      .map(([key, value]) => `${quoted(key)}=${quoted(value)}`)
      .join(' '),
    GIT_PAGER: 'cat',
    GIT_CONFIG_NOSYSTEM: '1',
  }
}

/**
 * An environment with {@link NEUTRAL_GIT_ENV} applied (and no `GIT_EXTERNAL_DIFF`, which would
 * win); `kept` names overrides to leave out (`core.hooksPath` for the lookup of the hooks folder).
 */
export function withNeutralGit(
  env: Readonly<Record<string, string | undefined>>,
  kept: readonly string[] = [],
): Record<string, string> {
  const { GIT_EXTERNAL_DIFF: _external, GIT_CONFIG_COUNT: _count, ...rest } = env
  const defined: Record<string, string> = {}
  for (const [name, value] of Object.entries(rest)) if (value !== undefined) defined[name] = value
  return { ...defined, ...neutralGitEnv(kept) }
}
