/**
 * The environment child processes get. By default the engine's own environment is inherited minus
 * variables whose names look like credentials, because everything a command prints goes to a model
 * provider: an `env` or a failing script that dumps its environment should not leak
 * `ANTHROPIC_API_KEY` or `GITHUB_TOKEN`. Users opt a variable back in with `allow`.
 */

/** How to build a child environment. */
export interface EnvPolicy {
  /** `all` inherits the engine's environment; `core` keeps only PATH, HOME, locale, shell and temp. */
  inherit: 'all' | 'core'
  /** Drop variables whose names look like secrets (see {@link isSecretLikeName}). */
  stripSecrets: boolean
  /** Names kept even when they look like secrets (exact, case-sensitive). */
  allow: string[]
  /** Names always dropped. */
  deny: string[]
  /** Set last; wins over everything. */
  set: Record<string, string>
}

/** The default policy: inherit, strip secret-looking names, and make tools non-interactive. */
export const DEFAULT_ENV_POLICY: EnvPolicy = {
  inherit: 'all',
  stripSecrets: true,
  allow: [],
  deny: [],
  set: {},
}

/** Set on every child so pagers and credential prompts never wait for a terminal that isn't there. */
const NON_INTERACTIVE: Record<string, string> = {
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
  GIT_EDITOR: 'true',
  Z_ENGINE: '1',
}

const CORE_NAMES = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TMPDIR',
  'TMP',
  'TEMP',
  'TZ',
  'PWD',
])

/** Name words that mark a credential (`AWS_SECRET_ACCESS_KEY`, `NPM_TOKEN`, `DB_PASSWORD`). */
const SECRET_WORDS = new Set([
  'KEY',
  'KEYS',
  'APIKEY',
  'SECRET',
  'SECRETS',
  'TOKEN',
  'TOKENS',
  'PASSWORD',
  'PASSWORDS',
  'PASSWD',
  'PASSPHRASE',
  'CREDENTIAL',
  'CREDENTIALS',
  'PRIVATE',
  'PAT',
])

/**
 * Names that contain a secret word but carry no secret: agent sockets and key *locations* that
 * git, ssh and gpg need to work.
 */
const NOT_SECRETS = new Set(['SSH_AUTH_SOCK', 'SSH_AGENT_PID', 'GPG_AGENT_INFO', 'GPG_TTY', 'KEYTIMEOUT'])

/** Whether an environment variable name looks like it holds a credential. */
export function isSecretLikeName(name: string): boolean {
  if (NOT_SECRETS.has(name)) return false
  const words = name.toUpperCase().split(/[^A-Z0-9]+/)
  if (words.some((word) => SECRET_WORDS.has(word))) return true
  // Glued forms: GITHUBTOKEN, OPENAIAPIKEY, MYSECRET.
  return /(APIKEY|TOKEN|SECRET|PASSWORD|PASSWD)$/.test(words[words.length - 1] ?? '')
}

/** Builds a child environment from `base` (usually `process.env`) under `policy`. */
export function childEnvironment(
  base: Record<string, string | undefined>,
  policy: Partial<EnvPolicy> = {},
): Record<string, string> {
  const effective: EnvPolicy = { ...DEFAULT_ENV_POLICY, ...policy }
  const allow = new Set(effective.allow)
  const deny = new Set(effective.deny)
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || deny.has(name)) continue
    if (
      effective.inherit === 'core' &&
      !CORE_NAMES.has(name) &&
      !name.startsWith('LC_') &&
      !allow.has(name)
    ) {
      continue
    }
    if (effective.stripSecrets && isSecretLikeName(name) && !allow.has(name)) continue
    env[name] = value
  }
  return { ...env, ...NON_INTERACTIVE, ...effective.set }
}
