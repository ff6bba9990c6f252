import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

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
export const NEUTRAL_GIT_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_PARAMETERS: NEUTRAL_GIT_CONFIG.map(([key, value]) => `${quoted(key)}=${quoted(value)}`).join(
    ' ',
  ),
  GIT_PAGER: 'cat',
  GIT_CONFIG_NOSYSTEM: '1',
}

/** An environment with {@link NEUTRAL_GIT_ENV} applied (and no `GIT_EXTERNAL_DIFF`, which would win). */
export function withNeutralGit(env: Readonly<Record<string, string>>): Record<string, string> {
  const { GIT_EXTERNAL_DIFF: _external, GIT_CONFIG_COUNT: _count, ...rest } = env
  return { ...rest, ...NEUTRAL_GIT_ENV }
}

/** One config entry as git lists it. */
export interface GitConfigListing {
  scope: string
  key: string
}

/**
 * The git configuration git would use in `dir`, every scope with includes followed, as
 * `git config --list --includes --show-scope -z` prints it (reading config runs no program).
 * Undefined when git cannot tell (not installed, a broken config file).
 */
export function gitConfigEntries(
  dir: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): GitConfigListing[] | undefined {
  // A folder that does not exist holds no repository (and git cannot run there either).
  if (!existsSync(dir)) return []
  let out: string
  try {
    out = execFileSync('git', ['config', '--list', '--includes', '--show-scope', '-z'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 5_000,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...env, GIT_OPTIONAL_LOCKS: '0' },
    })
  } catch (error) {
    // No config at all (a folder outside any repository with no user config) exits 1 with nothing listed.
    const status = (error as { status?: number }).status
    const stdout = (error as { stdout?: string }).stdout
    if (status === 1 && (stdout ?? '') === '') return []
    return undefined
  }
  const parts = out.split('\0')
  const entries: GitConfigListing[] = []
  for (let index = 0; index + 1 < parts.length; index += 2) {
    const scope = parts[index] as string
    const pair = parts[index + 1] as string
    const newline = pair.indexOf('\n')
    entries.push({ scope, key: newline < 0 ? pair : pair.slice(0, newline) })
  }
  return entries
}
