/**
 * The environment child processes get. Everything a command prints goes to a model provider, and
 * a command can run `env`, so children get a named allowlist of variables — not "everything minus
 * what looks secret", which misses `DATABASE_URL`, `SENTRY_DSN` and every name nobody thought of.
 * Users add names (or globs) with `allow`; the engine's own credentials (`never`) are dropped
 * whatever the other settings say.
 */

/** How to build a child environment. */
export interface EnvPolicy {
  /**
   * `core` (default): only {@link CORE_ENV_NAMES}, `LC_*` and `allow`. `all`: the engine's whole
   * environment, minus secret-looking names unless `stripSecrets` is off (an explicit opt-out).
   * `none`: nothing inherited; only `set` and the non-interactive defaults.
   */
  inherit: 'core' | 'all' | 'none'
  /** With `all`: drop variables whose names look like secrets (see {@link isSecretLikeName}). */
  stripSecrets: boolean
  /** Names or globs (`*`, `?`) passed through in addition to the core set. */
  allow: string[]
  /** Names or globs always dropped. */
  deny: string[]
  /** When not empty, only names matching one of these globs pass (applied after everything else). */
  includeOnly: string[]
  /** Exact names that never reach a child (the engine's own credentials), whatever `allow` says. */
  never: string[]
  /** Set last; wins over everything except `never`. */
  set: Record<string, string>
}

/** The default policy: the core allowlist, non-interactive tools. */
export const DEFAULT_ENV_POLICY: EnvPolicy = {
  inherit: 'core',
  stripSecrets: true,
  allow: [],
  deny: [],
  includeOnly: [],
  never: [],
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

/**
 * What a child inherits by default, each for a reason (see docs/processes-and-file-tools.md). Left
 * out on purpose: `SSH_AUTH_SOCK` (lets a command authenticate as the user: push, ssh to servers),
 * `NODE_OPTIONS` (`--require` injects code into every node child, and the engine's own flags would
 * leak into the project's), `DISPLAY`/`WAYLAND_DISPLAY` (GUI access), and anything holding a token.
 */
export const CORE_ENV_NAMES: readonly string[] = [
  // Finding programs and the user's files; who the user is (git, ssh, tools that print it).
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  // Output encoding, messages and times as the user reads them (`LC_*` pass too).
  'LANG',
  'LANGUAGE',
  'TZ',
  // Color and capability detection; there is no terminal, but tools read it to pick plain output.
  'TERM',
  // Where temporary files go.
  'TMPDIR',
  'TMP',
  'TEMP',
  // Where tools keep config and caches (XDG base directories).
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  'XDG_RUNTIME_DIR',
  // Toolchain homes: paths that select the installed compiler/runtime and its caches, no secrets.
  'GOPATH',
  'GOROOT',
  'GOBIN',
  'GOCACHE',
  'GOMODCACHE',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'PNPM_HOME',
  'NVM_DIR',
  'NVM_BIN',
  'VOLTA_HOME',
  'BUN_INSTALL',
  'DENO_DIR',
  'JAVA_HOME',
  'GRADLE_USER_HOME',
  'MAVEN_HOME',
  'M2_HOME',
  'ANDROID_HOME',
  'ANDROID_SDK_ROOT',
  'DOTNET_ROOT',
  'PYENV_ROOT',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'CONDA_DEFAULT_ENV',
  'PIPX_HOME',
  'POETRY_HOME',
  'RBENV_ROOT',
  'GEM_HOME',
  'GEM_PATH',
  // Network setup without which installs fail behind a corporate proxy; CA bundles are paths.
  // (A proxy URL may carry a password: redaction replaces `user:pass@` in anything printed.)
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'GIT_SSL_CAINFO',
]

const CORE = new Set(CORE_ENV_NAMES)

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

/** Whether an environment variable name looks like it holds a credential (used by `inherit: 'all'`). */
export function isSecretLikeName(name: string): boolean {
  if (NOT_SECRETS.has(name)) return false
  const words = name.toUpperCase().split(/[^A-Z0-9]+/)
  if (words.some((word) => SECRET_WORDS.has(word))) return true
  // Glued forms: GITHUBTOKEN, OPENAIAPIKEY, MYSECRET.
  return /(APIKEY|TOKEN|SECRET|PASSWORD|PASSWD)$/.test(words[words.length - 1] ?? '')
}

/** A matcher for variable-name globs: `*` any run, `?` one character, everything else literal. */
export function envNameMatcher(globs: readonly string[]): (name: string) => boolean {
  if (globs.length === 0) return () => false
  const source = globs
    .map((glob) =>
      glob
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.'),
    )
    .join('|')
  const pattern = new RegExp(`^(?:${source})$`)
  return (name) => pattern.test(name)
}

/** Builds a child environment from `base` (usually the engine's environment) under `policy`. */
export function childEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  policy: Partial<EnvPolicy> = {},
): Record<string, string> {
  const effective: EnvPolicy = { ...DEFAULT_ENV_POLICY, ...policy }
  const allowed = envNameMatcher(effective.allow)
  const denied = envNameMatcher(effective.deny)
  const only = effective.includeOnly.length > 0 ? envNameMatcher(effective.includeOnly) : () => true
  const never = new Set(effective.never)
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || never.has(name) || denied(name) || !only(name)) continue
    if (!inherits(effective, name, allowed)) continue
    env[name] = value
  }
  const result = { ...env, ...NON_INTERACTIVE, ...effective.set }
  for (const name of never) delete result[name]
  if (result.PATH !== undefined) result.PATH = absolutePathEntries(result.PATH)
  return result
}

/**
 * The absolute entries of a PATH, in order. A relative entry (`.`, `node_modules/.bin`, an empty
 * one, which means `.`) makes a program name mean a file of whatever folder the lookup runs in —
 * the project — so a repository shipping `./ls` or `./git` would run in place of the real one
 * (issue 34). Every child the engine starts gets only the absolute ones.
 */
export function absolutePathEntries(path: string): string {
  return path
    .split(':')
    .filter((entry) => entry.startsWith('/'))
    .join(':')
}

function inherits(policy: EnvPolicy, name: string, allowed: (name: string) => boolean): boolean {
  switch (policy.inherit) {
    case 'none':
      return false
    case 'core':
      return CORE.has(name) || name.startsWith('LC_') || allowed(name)
    case 'all':
      return !policy.stripSecrets || !isSecretLikeName(name) || allowed(name)
    default: {
      const unknown: never = policy.inherit
      throw new Error(`unknown inherit mode ${String(unknown)}`)
    }
  }
}
