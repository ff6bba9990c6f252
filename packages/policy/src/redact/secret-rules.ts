/**
 * The shapes of secrets that tool output and journal records are scrubbed of. Each rule names a
 * `kind` (the placeholder's label), literal `anchors` one of which must occur in the text before
 * the (costlier) pattern runs, and the pattern. When the pattern has a capture group named
 * `secret`, only that group is replaced (the password of a connection string, the value after
 * `aws_secret_access_key =`), so the surrounding context stays readable.
 */

/** One secret shape. */
export interface SecretRule {
  kind: string
  /** Literal substrings (case-sensitive); the pattern only runs when one occurs (none: always). */
  anchors: readonly string[]
  /**
   * `scan` (default): a global pattern run over the whole text. `at-anchor`: a sticky (`y`) pattern
   * tried only where an anchor occurs — for patterns whose first character is common, which a
   * whole-text scan would try at nearly every position.
   */
  mode?: 'scan' | 'at-anchor'
  /** An optional `secret` group narrows what is replaced. */
  pattern: RegExp
  /** Rejects look-alikes the pattern cannot tell apart (prose, placeholders). */
  accept?: (secret: string) => boolean
}

/** A token with upper case, lower case and a digit: real keys nearly always, prose and slugs rarely. */
function mixedCase(secret: string): boolean {
  return /[0-9]/.test(secret) && /[A-Z]/.test(secret) && /[a-z]/.test(secret)
}

/** A value that is a reference or a stand-in, not a secret (`${PGPASSWORD}`, `<password>`, `****`). */
function notPlaceholder(secret: string): boolean {
  return !/^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|<[^>]*>|\*+|x+|X+|\.\.\.|password|pass|secret|changeme)$/.test(
    secret,
  )
}

// A token must not continue a longer word: `task-sk-...` and `mask_ghp_...` are not tokens.
const START = '(?<![A-Za-z0-9_-])'
const END = '(?![A-Za-z0-9_-])'

/** Every rule, most specific first (`sk-ant-` before `sk-`, private key blocks before anything inside them). */
export const SECRET_RULES: readonly SecretRule[] = [
  {
    kind: 'private-key',
    anchors: ['-----BEGIN '],
    mode: 'at-anchor',
    // A whole block, or (when output was cut between its lines) the header and the key body after it.
    pattern:
      /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s:,\\-]*)/y,
  },
  {
    kind: 'gcp-private-key-id',
    anchors: ['private_key_id'],
    pattern: /"private_key_id"\s*:\s*"(?<secret>[0-9a-f]{40})"/g,
  },
  {
    kind: 'anthropic-key',
    anchors: ['sk-ant-'],
    pattern: new RegExp(`${START}sk-ant-[A-Za-z0-9]{2,8}-[A-Za-z0-9_-]{32,}${END}`, 'g'),
  },
  {
    kind: 'openai-key',
    anchors: ['sk-'],
    pattern: new RegExp(`${START}sk-(?:(?:proj|svcacct|admin|None)-)?[A-Za-z0-9_-]{20,}${END}`, 'g'),
    // `sk-learn-compatible-estimators` is prose; a key mixes cases and digits.
    accept: (token) => mixedCase(token.slice(3)),
  },
  {
    kind: 'github-token',
    anchors: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    pattern: new RegExp(
      `${START}(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{60,255})${END}`,
      'g',
    ),
  },
  {
    kind: 'gitlab-token',
    anchors: ['glpat-', 'glptt-', 'gldt-', 'glrt-', 'glsoat-', 'glcbt-'],
    pattern: new RegExp(`${START}gl(?:pat|ptt|dt|rt|soat|cbt)-[A-Za-z0-9_.-]{20,}${END}`, 'g'),
  },
  {
    kind: 'npm-token',
    anchors: ['npm_'],
    pattern: new RegExp(`${START}npm_[A-Za-z0-9]{36}${END}`, 'g'),
  },
  {
    kind: 'slack-token',
    anchors: ['xox', 'xapp-'],
    pattern: new RegExp(
      `${START}(?:xox[abposre]-[0-9A-Za-z-]{10,}|xapp-[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]+)${END}`,
      'g',
    ),
  },
  {
    kind: 'slack-webhook',
    anchors: ['hooks.slack.com'],
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9/_-]{20,}/g,
  },
  {
    kind: 'stripe-key',
    anchors: ['sk_live_', 'rk_live_', 'sk_test_', 'rk_test_', 'whsec_'],
    pattern: new RegExp(
      `${START}(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})${END}`,
      'g',
    ),
  },
  {
    kind: 'aws-access-key-id',
    anchors: ['AKIA', 'ASIA', 'ABIA', 'ACCA'],
    pattern: /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}(?![A-Z0-9])/g,
  },
  {
    kind: 'aws-secret-key',
    // 40 base64 characters are only a secret next to a name that says so (a git SHA is 40 hex too).
    anchors: ['ecret', 'ECRET'],
    pattern:
      /(?:aws_?secret_?access_?key|aws_?secret_?key|secret_?access_?key|SecretAccessKey)["']?\s*[:=]\s*["']?(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
  },
  {
    kind: 'azure-storage-key',
    anchors: ['AccountKey=', 'SharedAccessKey=', 'sig='],
    pattern:
      /(?:AccountKey=(?<secret>[A-Za-z0-9+/]{86}==)|SharedAccessKey=(?<secret2>[A-Za-z0-9+/]{43}=)|[?&]sig=(?<secret3>[A-Za-z0-9%+/]{40,}))/g,
  },
  {
    kind: 'azure-client-secret',
    anchors: ['Q~'],
    pattern: new RegExp(`${START}[A-Za-z0-9_.~-]{3}[0-9]Q~[A-Za-z0-9_.~-]{31,34}${END}`, 'g'),
  },
  {
    kind: 'jwt',
    anchors: ['eyJ'],
    pattern: new RegExp(
      `${START}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{16,}${END}`,
      'g',
    ),
  },
  {
    kind: 'password',
    anchors: ['://'],
    mode: 'at-anchor',
    // scheme://user:password@host — only the password goes.
    pattern: /:\/\/[^\s:/?#@'"`]{1,256}:(?<secret>[^\s/?#@'"`]{1,256})@/y,
    accept: notPlaceholder,
  },
  {
    kind: 'secret-assignment',
    // `NAME_TOKEN=value` lines as `env`, `.env` files and `export` print them.
    // The name ends at the keyword or continues only with `_WORD`s (`tokenizer=` is not a secret).
    // Starts at the keyword (in its usual casings, which scans faster than the `i` flag): a leading
    // `[A-Za-z0-9_]*` for the rest of the name made the engine try every position (10 times slower).
    anchors: [],
    pattern:
      /(?:[Aa]pi_?[Kk]ey|API_?KEY|[Ss]ecret|SECRET|[Tt]oken|TOKEN|[Pp]assw(?:or)?d|PASSW(?:OR)?D|[Cc]redentials?|CREDENTIALS?|[Aa]ccess_?[Kk]ey|ACCESS_?KEY)(?:_[A-Za-z0-9]+)*["']?[ \t]*[=:][ \t]*["']?(?<secret>[^\s"'`;,)([\]]{12,})/g,
    accept: (secret) => notPlaceholder(secret) && /[0-9]/.test(secret) && /[A-Za-z]/.test(secret),
  },
]
