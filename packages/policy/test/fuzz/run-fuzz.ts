// Generates lines, keeps those the policy allows in default mode (proven read-only inside the
// project), runs them in the sandbox and returns every line that wrote or ran the canary.
import fc from 'fast-check'
import {
  buildRuleSet,
  decide,
  type PolicyContext,
  pathFactsFromLinks,
  READ_ONLY_COMMANDS,
} from '../../src/index.js'
import { fuzzLine } from './grammar.js'
import { type Observed, runInSandbox, SANDBOX_HOME, SANDBOX_PROJECT } from './sandbox.js'

const context: PolicyContext = {
  mode: 'default',
  rules: buildRuleSet([]),
  projectRoot: SANDBOX_PROJECT,
  additionalDirectories: [],
  home: SANDBOX_HOME,
}

/**
 * A repository whose own config names the canary through every key git runs a program from that
 * the engine neutralises (issue 34), and the environment the engine runs confined lines with
 * (host's `NEUTRAL_GIT_ENV`; kept equal by hand: the policy's tests cannot import host).
 */
const HOSTILE_KEYS: ReadonlyArray<readonly [string, string]> = [
  ['core.fsmonitor', 'canary'],
  ['diff.external', 'canary'],
  ['core.pager', 'canary'],
  ['pager.log', 'canary'],
  ['pager.diff', 'canary'],
  ['core.sshCommand', 'canary'],
  ['gpg.program', 'canary'],
  ['log.showSignature', 'true'],
  ['man.viewer', 'evil'],
  ['man.evil.cmd', 'canary'],
  ['alias.status', '!canary'],
  ['alias.log', '!canary'],
]
/** The hostile config alone: what a plain run of git meets. */
export const HOSTILE_CONFIG = HOSTILE_KEYS.map(([key, value]) => `git config ${key} '${value}'`).join('\n')
const HOSTILE_SETUP = [
  HOSTILE_CONFIG,
  `export GIT_CONFIG_PARAMETERS="'core.fsmonitor'='false' 'core.hooksPath'='/dev/null' 'core.pager'='cat' 'core.sshCommand'='false' 'diff.external'='' 'log.showSignature'='false' 'gpg.program'='false' 'gpg.openpgp.program'='false' 'gpg.x509.program'='false' 'gpg.ssh.program'='false'"`,
  'export GIT_PAGER=cat GIT_CONFIG_NOSYSTEM=1',
].join('\n')
const HOSTILE_CONTEXT: PolicyContext = {
  ...context,
  pathFacts: {
    realPath: (path) => path,
    gitConfig: () => HOSTILE_KEYS.map(([key]) => ({ scope: 'local', key })),
  },
}

/**
 * The generated lines that run git and that the policy allows in a repository whose own config
 * names a driver, an include or submodules (it must allow none: git is not proven there).
 */
export function gitAllowedWithDriver(options: { seed: number; generate: number }): {
  /** How many of them a plain repository allows (so an empty list means something). */
  plain: number
  allowed: string[]
} {
  const withDriver: PolicyContext = {
    ...context,
    pathFacts: {
      realPath: (path) => path,
      gitConfig: () => [
        { scope: 'global', key: 'user.name' },
        { scope: 'local', key: 'diff.evil.textconv' },
      ],
    },
  }
  const lines = fc.sample(fuzzLine, { seed: options.seed, numRuns: options.generate })
  // With the table's own proven git examples, so the plain count is never a handful.
  const examples = READ_ONLY_COMMANDS.find((entry) => entry.names.includes('git'))?.match ?? []
  const git = [...new Set([...examples, ...lines])].filter((line) => /\bgit\b/.test(line))
  const allows = (line: string, judged: PolicyContext) =>
    decide({ type: 'execute', command: line, cwd: SANDBOX_PROJECT }, judged).decision === 'allow'
  return {
    plain: git.filter((line) => allows(line, context)).length,
    allowed: git.filter((line) => allows(line, withDriver)),
  }
}

/** What one fuzz run did. */
export interface FuzzReport {
  generated: number
  allowed: number
  executed: number
  failures: Observed[]
  seconds: number
}

/**
 * Samples `generate` lines from `seed`, runs the allowed ones (in chunks) until `budgetMs` is
 * spent, and reports the lines real bash showed writing or executing.
 */
export function fuzzProof(options: {
  seed: number
  generate: number
  budgetMs: number
  chunk?: number
  /** Run in a repository whose `.git/config` names programs (issue 34), as the engine runs it. */
  hostileRepository?: boolean
  /**
   * Judge with an allow rule `Bash(<name>:*)` for each of these commands (issue 34: a rule covers
   * the tool, not the files its write options name). Only writes count then: the rule allows what
   * the tool runs.
   */
  allowRules?: readonly string[]
}): FuzzReport {
  const started = Date.now()
  const lines = fc.sample(fuzzLine, { seed: options.seed, numRuns: options.generate })
  const judged = options.hostileRepository
    ? HOSTILE_CONTEXT
    : options.allowRules
      ? {
          ...context,
          rules: buildRuleSet([
            { source: 'fuzz', allow: options.allowRules.map((name) => `Bash(${name}:*)`) },
          ]),
        }
      : context
  const allowed = [...new Set(lines)].filter(
    (line) => decide({ type: 'execute', command: line, cwd: SANDBOX_PROJECT }, judged).decision === 'allow',
  )
  const failures: Observed[] = []
  let executed = 0
  const chunk = options.chunk ?? 25
  for (let at = 0; at < allowed.length; at += chunk) {
    if (at > 0 && Date.now() - started > options.budgetMs) break
    const batch = allowed.slice(at, at + chunk)
    executed += batch.length
    for (const observed of runInSandbox(batch, 120_000, options.hostileRepository ? HOSTILE_SETUP : ''))
      if ((observed.executed && !options.allowRules) || observed.wrote) failures.push(observed)
  }
  return {
    generated: lines.length,
    allowed: allowed.length,
    executed,
    failures,
    seconds: (Date.now() - started) / 1000,
  }
}

/**
 * Lines judged with a `Read(./.env)` deny rule in `mode` (bypass included): every allowed line runs
 * in the sandbox and none may print the content of the project's `.env` (issue 34: deny rules hold
 * for every read path — git index forms, pathspecs, globs, folder-wide reads).
 */
export function fuzzDenyRule(options: {
  seed: number
  generate: number
  budgetMs: number
  mode: 'default' | 'bypass'
}): {
  allowed: number
  executed: number
  leaks: string[]
} {
  const started = Date.now()
  const judged: PolicyContext = {
    ...context,
    mode: options.mode,
    rules: buildRuleSet([{ source: 'fuzz', deny: ['Read(./.env)'] }]),
  }
  const lines = [
    ...new Set([...DENY_PROBES, ...fc.sample(fuzzLine, { seed: options.seed, numRuns: options.generate })]),
  ]
  const allowed = lines.filter(
    (line) => decide({ type: 'execute', command: line, cwd: SANDBOX_PROJECT }, judged).decision === 'allow',
  )
  const leaks: string[] = []
  let executed = 0
  for (let at = 0; at < allowed.length; at += 10) {
    if (at > 0 && Date.now() - started > options.budgetMs) break
    const batch = allowed.slice(at, at + 10)
    executed += batch.length
    for (const observed of runInSandbox(batch)) if (observed.leaked) leaks.push(observed.line)
  }
  return { allowed: allowed.length, executed, leaks }
}

/**
 * The project ships a link out of it (`lnk -> /tmp/outside`, a stand-in for `$HOME`) holding a
 * secret, and no `.env`: a line the policy allows in default mode (the engine tells it where links
 * lead) must not print what lies behind the link (issue 34: `rg -L`, `grep -R`, `find -L`).
 */
export function fuzzLinkWalks(options: { seed: number; generate: number; budgetMs: number }): {
  allowed: number
  executed: number
  leaks: string[]
} {
  const started = Date.now()
  const judged: PolicyContext = {
    ...context,
    pathFacts: pathFactsFromLinks({ [`${SANDBOX_PROJECT}/lnk`]: '/tmp/outside' }),
  }
  const lines = [
    ...new Set([...LINK_PROBES, ...fc.sample(fuzzLine, { seed: options.seed, numRuns: options.generate })]),
  ]
  const allowed = lines.filter(
    (line) => decide({ type: 'execute', command: line, cwd: SANDBOX_PROJECT }, judged).decision === 'allow',
  )
  const leaks: string[] = []
  let executed = 0
  for (let at = 0; at < allowed.length; at += 10) {
    if (at > 0 && Date.now() - started > options.budgetMs) break
    const batch = allowed.slice(at, at + 10)
    executed += batch.length
    for (const observed of runInSandbox(batch, 120_000, LINK_SETUP))
      if (observed.leaked) leaks.push(observed.line)
  }
  return { allowed: allowed.length, executed, leaks }
}

/** The link out of the fuzz project, and the secret behind it (the project's own `.env` removed). */
export const LINK_SETUP = [
  'mkdir -p /tmp/outside && printf "secret=1\\n" > /tmp/outside/token',
  'rm -f .env && ln -s /tmp/outside lnk',
].join('\n')

/** Lines that followed a committed link out of the project before issue 34, always among those judged. */
const LINK_PROBES = [
  'rg -L secret',
  'rg --follow secret',
  'grep -R secret .',
  'grep -rR secret',
  'grep --dereference-recursive secret .',
  'find -L . -name token',
  'find . -follow -type f',
  'ls -LR',
  'du -L -a .',
  'tree -l',
  'grep -r secret lnk',
  'rg secret lnk',
  'cat lnk/token',
  'head lnk/*',
  'grep -r secret lnk/',
  'cd lnk && cat token',
  'tar chf - . | cat',
  'rg -uu secret',
  'grep -r secret .',
]

/** Lines that printed a deny-ruled file before issue 34, always among those judged. */
const DENY_PROBES = [
  'git show :0:.env',
  'git show :.env',
  'git diff HEAD~0 -- .',
  'git log -p',
  'git grep secret',
  'git cat-file -p :0:.env',
  'tar cf - .',
  'cp -r . /tmp/copy && cat /tmp/copy/.env',
  'grep -r secret .',
  'rg -uu secret',
  'cat .e*',
  'head -n 5 .env',
]

/** Sources a copy can name in the fuzz project's `vendor/` (a hostile tree holding protected places). */
const COPY_SOURCES = [
  'vendor/.husky',
  'vendor/.',
  'vendor/',
  'vendor',
  'vendor/*',
  'vendor/.*',
  'vendor/lib',
  'vendor/lib/.',
  'vendor/.envrc',
  'vendor/rust-toolchain.toml',
  'vendor/*.ts',
  'vendor/.claude',
]
const COPY_DESTINATIONS = ['.', './', 'out', 'lib', 'dir', '.git', 'dir/.']
const COPY_COMMANDS = ['cp -r', 'cp -a', 'cp -rT', 'mv', 'rsync -a', 'cp -r -t']
/** Sets up `vendor/` with protected places inside (run in the template project). */
export const VENDOR_SETUP = [
  'mkdir -p vendor/.husky vendor/lib vendor/.claude/hooks out lib',
  "printf 'canary\\n' > vendor/.husky/pre-commit",
  "printf 'x\\n' > vendor/lib/a.ts",
  "printf 'use canary\\n' > vendor/.envrc",
  "printf '[toolchain]\\n' > vendor/rust-toolchain.toml",
  "printf 'canary\\n' > vendor/.claude/hooks/x.sh",
  "printf 'x\\n' > vendor/b.ts",
].join('\n')
/**
 * What a copy must never create without asking: a protected place at the project's top or directly
 * in a destination folder. (The contents of a named folder copied whole are not inspected: a
 * `.claude` nested in `vendor/` lands at `out/vendor/.claude`; see docs/permissions.md.)
 */
const PROTECTED_CHANGE =
  /^> \/tmp\/proj\/(?:(?:out|lib|dir)\/)?(\.husky|\.claude|\.envrc|rust-toolchain\.toml|\.git\/(?!index))/

/**
 * Copies, moves and syncs of a hostile `vendor/` tree: every line the policy allows in acceptEdits
 * runs in the sandbox, and none may create a protected place (issue 34).
 */
export function fuzzCopies(options: { seed: number; generate: number }): {
  allowed: number
  failures: string[]
} {
  const line = fc
    .tuple(
      fc.constantFrom(...COPY_COMMANDS),
      fc.constantFrom(...COPY_SOURCES),
      fc.constantFrom(...COPY_DESTINATIONS),
    )
    .map(([command, source, destination]) =>
      command.endsWith('-t') ? `${command} ${destination} ${source}` : `${command} ${source} ${destination}`,
    )
  const accept: PolicyContext = { ...context, mode: 'acceptEdits' }
  const lines = [...new Set(fc.sample(line, { seed: options.seed, numRuns: options.generate }))]
  const allowed = lines.filter(
    (candidate) =>
      decide({ type: 'execute', command: candidate, cwd: SANDBOX_PROJECT }, accept).decision === 'allow',
  )
  const failures: string[] = []
  for (const observed of runInSandbox(allowed, 120_000, VENDOR_SETUP)) {
    const bad = observed.changes.filter((change) => PROTECTED_CHANGE.test(change))
    if (bad.length > 0) failures.push(`${JSON.stringify(observed.line)}: ${bad.join(' ')}`)
  }
  return { allowed: allowed.length, failures }
}
