import { type OptionTable, options, parseOptions } from './options.js'
import { dot, refused, type TableVerdict } from './read-only-checks.js'
import type { ReadOnlyEntry } from './read-only-entry.js'
import type { ShellWord } from './types.js'

/** Options of the diff machinery (diff, show, log -p, stash show). `--output` writes a file. */
const DIFF =
  '-p/-u/--patch -s/--no-patch --raw --patch-with-raw --patch-with-stat --stat?text --numstat --shortstat --dirstat?text --summary --name-only --name-status --compact-summary -z --full-index --binary --abbrev?num -U/--unified:num --color?always|never|auto --no-color --color-moved?text --color-words?text --word-diff?color|plain|porcelain|none --word-diff-regex:text -w/--ignore-all-space -b/--ignore-space-change --ignore-space-at-eol --ignore-blank-lines --ignore-cr-at-eol -M/--find-renames?num -C/--find-copies?num --find-copies-harder -B/--break-rewrites?text -D/--irreversible-delete -l:num --diff-filter:text -S:text -G:text --pickaxe-all --pickaxe-regex -R --relative?text -a/--text --minimal --patience --histogram --diff-algorithm:default|myers|minimal|patience|histogram --src-prefix:text --dst-prefix:text --no-prefix --default-prefix --exit-code --quiet --no-renames --no-ext-diff --no-textconv --submodule?short|log --ignore-submodules?dirty|all --check -W/--function-context --inter-hunk-context:num --indent-heuristic --no-indent-heuristic --line-prefix:text --output:write'
const DIFF_REFUSED = '--ext-diff --textconv --output-directory --open-files-in-pager --orderfile'
/** Options of the revision walk and commit formatting (log, show, shortlog, rev-list). */
const LOG =
  '-n/--max-count:num --skip:num --since/--after:text --until/--before:text --author:text --committer:text --grep:text --all-match --invert-grep -i/--regexp-ignore-case -E/--extended-regexp -F/--fixed-strings -P/--perl-regexp --merges --no-merges --min-parents:num --max-parents:num --first-parent --all --branches?text --tags?text --remotes?text --exclude:text --reflog --not --ancestry-path --simplify-by-decoration --full-history --dense --sparse --simplify-merges --show-pulls --left-right --left-only --right-only --cherry-pick --cherry-mark --cherry --boundary --topo-order --date-order --author-date-order --reverse -g/--walk-reflogs --oneline --pretty?text --format:text --abbrev-commit --no-abbrev-commit --decorate?short|full|auto|no --no-decorate --source --graph --date:text --relative-date --parents --children --follow --log-size --no-notes --expand-tabs?num --no-expand-tabs --encoding:text --mailmap --use-mailmap --no-mailmap --no-use-mailmap --clear-decorations --decorate-refs:text --decorate-refs-exclude:text --cc -c -m --diff-merges:text -t --root --no-walk?sorted|unsorted --do-walk --count --in-commit-order'
const LOG_REFUSED = '--stdin --show-signature --notes --show-notes --exec'

function table(spec: string, refused = '', numericShort = false): OptionTable {
  return options(spec, { refused, numericShort })
}

type Reading = 'none' | 'content'

interface Subcommand {
  options: OptionTable
  /** Whether it prints file contents (then its paths, or the whole folder, count as reads). */
  reads: Reading
  /** Extra check on the parsed call (listing modes of branch, tag, config). */
  refine?: (operands: readonly ShellWord[], seen: ReadonlySet<string>) => string | undefined
  /** Options that make it print file contents (log -p). */
  contentOptions?: readonly string[]
}

const CONTENT_LOG = ['-p', '--cc', '-c', '-m', '-S', '-G', '--stat', '--word-diff', '--color-words']

const listing = (what: string) => (operands: readonly ShellWord[], seen: ReadonlySet<string>) =>
  operands.length === 0 || seen.has('-l') ? undefined : `git ${what} <name> changes ${what}es (use --list)`

const SUBCOMMANDS: Readonly<Record<string, Subcommand>> = {
  status: {
    options: table(
      '-s/--short -b/--branch --show-stash --porcelain?v1|v2 --long -v/--verbose -u/--untracked-files?no|normal|all --ignored?traditional|no|matching --ignore-submodules?dirty|all -z --column?text --no-column --ahead-behind --no-ahead-behind --renames --no-renames --find-renames?num',
    ),
    reads: 'none',
  },
  log: {
    options: table(`${LOG} ${DIFF}`, `${LOG_REFUSED} ${DIFF_REFUSED}`, true),
    reads: 'none',
    contentOptions: CONTENT_LOG,
  },
  'rev-list': {
    options: table(`${LOG} --objects --no-object-names --timestamp`, LOG_REFUSED, true),
    reads: 'none',
  },
  shortlog: {
    options: table(
      '-n/--numbered -s/--summary -e/--email -c/--committer -w?text --group:text --format:text --all --no-merges --merges --since/--after:text --until/--before:text --author:text --max-count:num --first-parent --reverse',
      LOG_REFUSED,
    ),
    reads: 'none',
  },
  show: { options: table(`${LOG} ${DIFF}`, `${LOG_REFUSED} ${DIFF_REFUSED}`), reads: 'content' },
  diff: {
    options: table(`${DIFF} --cached/--staged --merge-base --no-index`, DIFF_REFUSED),
    reads: 'content',
  },
  blame: {
    options: table(
      '-L:text -l -t -b --root --show-stats -f/--show-name -n/--show-number -p/--porcelain --line-porcelain -c -s -e/--show-email -w --incremental --abbrev:num --date:text --progress --no-progress --contents:read -M?num -C?num --ignore-rev:text --ignore-revs-file:read --color-lines --color-by-age --reverse:text --first-parent -S:read --encoding:text',
    ),
    reads: 'content',
  },
  grep: {
    options: table(
      '--cached --no-index --untracked --no-exclude-standard --exclude-standard --recurse-submodules -a/--text -i/--ignore-case -I --max-depth:num -r/--recursive --no-recursive -w/--word-regexp -v/--invert-match -h -H --full-name -E/--extended-regexp -G/--basic-regexp -P/--perl-regexp -F/--fixed-strings -n/--line-number --column -l/--files-with-matches/--name-only -L/--files-without-match -z/--null -o/--only-matching -c/--count --color?always|never|auto --no-color --break --heading -p/--show-function -A/--after-context:num -B/--before-context:num -C/--context:num -W/--function-context -m/--max-count:num --threads:num -f:read -e:text --and --or --not --all-match -q/--quiet',
      '--open-files-in-pager --textconv',
      true,
    ),
    reads: 'content',
  },
  describe: {
    options: table(
      '--all --tags --contains --abbrev:num --candidates:num --exact-match --debug --long --match:text --exclude:text --always --first-parent --dirty?text --broken?text',
    ),
    reads: 'none',
  },
  'rev-parse': {
    options: options(
      '--abbrev-ref?strict|loose --short?num --verify -q/--quiet --symbolic --symbolic-full-name --show-toplevel --show-prefix --show-cdup --git-dir --git-common-dir --absolute-git-dir --is-inside-work-tree --is-inside-git-dir --is-bare-repository --is-shallow-repository --show-superproject-working-tree --show-object-format?text --all --branches?text --tags?text --remotes?text --default:text --sq --not --revs-only --no-revs --flags --no-flags --path-format:absolute|relative',
      { abbreviations: false },
    ),
    reads: 'none',
  },
  'ls-files': {
    options: table(
      '-c/--cached -d/--deleted -m/--modified -o/--others -i/--ignored -s/--stage -k/--killed -u/--unmerged --directory --no-empty-directory --eol -z -t -v -f --full-name --recurse-submodules --abbrev?num --error-unmatch --exclude-standard -x/--exclude:text -X/--exclude-from:read --exclude-per-directory:text --deduplicate --sparse --format:text',
    ),
    reads: 'none',
  },
  'ls-tree': {
    options: table(
      '-d -r -t -l/--long -z --name-only/--name-status --object-only --full-name --full-tree --abbrev?num --format:text',
    ),
    reads: 'none',
  },
  'cat-file': {
    options: table(
      '-t -s -e -p --allow-unknown-type --use-mailmap --mailmap --no-mailmap',
      '--textconv --filters --batch --batch-check --batch-command --path',
    ),
    reads: 'content',
  },
  'merge-base': {
    options: table('-a/--all --octopus --independent --is-ancestor --fork-point'),
    reads: 'none',
  },
  'show-ref': {
    options: table(
      '--head --heads --branches --tags -d/--dereference -s/--hash?num --abbrev?num --verify -q/--quiet --exists',
    ),
    reads: 'none',
  },
  branch: {
    options: table(
      '-a/--all -r/--remotes -v/--verbose -l/--list --show-current --merged?text --no-merged?text --contains?text --no-contains?text --points-at:text --color?always|never|auto --no-color --column?text --no-column --sort:text --format:text -i/--ignore-case --abbrev:num --no-abbrev',
      '--delete --move --copy --force --set-upstream-to --unset-upstream --edit-description --track --no-track --create-reflog --recurse-submodules',
    ),
    reads: 'none',
    refine: listing('branch'),
  },
  tag: {
    options: table(
      '-l/--list -n?num --sort:text --contains?text --no-contains?text --merged?text --no-merged?text --points-at:text --format:text --color?always|never|auto -i/--ignore-case --column?text --no-column',
      '--annotate --sign --delete --verify --force --message --file --edit --cleanup --create-reflog --local-user',
    ),
    reads: 'none',
    refine: listing('tag'),
  },
  remote: {
    options: table('-v/--verbose'),
    reads: 'none',
    refine: (operands) =>
      operands.length === 0 ? undefined : 'git remote <command> changes or contacts remotes',
  },
  config: {
    options: table(
      '--get --get-all --get-regexp --get-urlmatch -l/--list --show-origin --show-scope --name-only -z/--null --type:bool|int|bool-or-int|path|expiry-date|color --bool --int --bool-or-int --path --expiry-date --default:text --global --system --local --worktree --includes --no-includes -f/--file:read',
      '--blob --add --replace-all --unset --unset-all --rename-section --remove-section --edit --get-color --get-colorbool',
    ),
    reads: 'none',
    refine: (operands, seen) => {
      const first = operands[0]?.value
      if (['--get', '--get-all', '--get-regexp', '--get-urlmatch', '-l'].some((mode) => seen.has(mode)))
        return undefined
      if (first === 'get' || first === 'list') return undefined
      return 'git config without --get/--list (or get/list) writes configuration'
    },
  },
}

/** `git stash list|show` and `git worktree list`: a verb, then options of their own. */
const VERBS: Readonly<Record<string, Readonly<Record<string, Subcommand>>>> = {
  stash: {
    list: { options: table(`${LOG}`, LOG_REFUSED), reads: 'none' },
    show: { options: table(`${DIFF} --include-untracked --only-untracked`, DIFF_REFUSED), reads: 'content' },
  },
  worktree: { list: { options: table('--porcelain -v/--verbose -z --expire:text'), reads: 'none' } },
}

// Not `--help`: `git --help log` starts the viewer `man.viewer`/`man.<tool>.cmd` names, which a
// repository's config chooses.
const GLOBAL = options(
  '--no-pager --no-optional-locks --literal-pathspecs --glob-pathspecs --noglob-pathspecs --icase-pathspecs --no-replace-objects --version',
  { abbreviations: false, permute: false, clusters: false },
)

const CONFIG_READ_MODES = ['--get', '--get-all', '--get-regexp', '--get-urlmatch', '-l', '--list']

function configReads(args: readonly ShellWord[]): boolean {
  if (args[0]?.value === 'get' || args[0]?.value === 'list') return true
  return args.some((word) =>
    CONFIG_READ_MODES.some((mode) => word.value === mode || word.value.startsWith(`${mode}=`)),
  )
}

/**
 * `git config` without a read mode writes a config file: the one `--file` names, `~/.gitconfig`
 * with `--global`, else the repository's `.git/config` (a protected path).
 */
function configWrite(args: readonly ShellWord[]): TableVerdict {
  let file: ShellWord = { value: '.git/config', literal: true, glob: false, tilde: false }
  for (let index = 0; index < args.length; index++) {
    const value = (args[index] as ShellWord).value
    if (value === '--global') file = { value: '~/.gitconfig', literal: true, glob: false, tilde: true }
    else if (value === '--file' || value === '-f') file = args[index + 1] ?? file
    else if (value.startsWith('--file='))
      file = { ...(args[index] as ShellWord), value: value.slice(7), tilde: false }
  }
  const verdict = refused('git config without --get/--list (or get/list) writes configuration')
  verdict.writes.push(file)
  return verdict
}

/**
 * A revision:path operand (`HEAD:README.md`) reads that path; so do the index forms `:path` and
 * `:<stage>:path` (`git show :0:.env`, issue 34).
 */
function pathOf(word: ShellWord): ShellWord {
  const index = /^:[0-3]:(.*)$/s.exec(word.value)
  if (index) return { ...word, value: index[1] || '.' }
  const colon = word.value.indexOf(':')
  return colon >= 0 ? { ...word, value: word.value.slice(colon + 1) || '.' } : word
}

/**
 * `git config --blob REV:PATH` parses a committed file as config and prints it (an INI-style
 * credentials file is valid config): never proven, and a read of that path (of the whole folder
 * when the blob is named by object id), so deny rules see it.
 */
function configBlob(args: readonly ShellWord[]): TableVerdict | undefined {
  const at = args.findIndex((word) => word.value === '--blob' || word.value.startsWith('--blob='))
  if (at < 0) return undefined
  const word = args[at] as ShellWord
  const value = word.value === '--blob' ? args[at + 1] : { ...word, value: word.value.slice(7) }
  const verdict = refused('git config --blob prints a committed file')
  if (value?.value.includes(':')) verdict.reads.push(pathOf(value))
  else verdict.reads.push(dot())
  verdict.recursive = true
  return verdict
}

/**
 * Whether an operand may name more than one path to git: a pathspec is a pattern (`'*nv'`,
 * `'.en?'`, `'[.]env'` match `.env`), magic (`:!src` and `:(exclude)src` match everything else,
 * `:/x` and `:(top)x` start at the top, `:(icase)` ignores case), and `:/text` names the commit
 * whose message matches, whose diff may print any file. Such an operand reads the whole folder.
 */
function broadPathspec(word: ShellWord, icase: boolean): boolean {
  if (icase) return true
  if (/^:[0-3]:/.test(word.value)) return /[*?[]/.test(word.value.slice(3))
  if (/^:(?:[/!^(]|$)/.test(word.value)) return true
  return /[*?[]/.test(pathOf(word).value)
}

/**
 * git: global options only from a short list (never -c, -C, --git-dir, --work-tree, --exec-path,
 * --config-env); then a read-only subcommand with options from its allowlist. Commands that print
 * file contents (show, diff, blame, grep, cat-file, log -p) read their path operands, or the whole
 * folder when they name none, so Read deny rules see them.
 */
export function checkGit(args: readonly ShellWord[]): TableVerdict {
  const globals = parseOptions(args, GLOBAL)
  if (globals.refusal)
    return refused(`git ${globals.refusal} (global options may point git at another repository or config)`)
  const [name, ...rest] = globals.operands
  if (!name) return { reads: [], writes: [], recursive: false }
  if (!name.literal) return refused('the git subcommand is computed')
  let sub = SUBCOMMANDS[name.value]
  let args2 = rest
  const verbs = VERBS[name.value]
  if (verbs) {
    const verb = rest[0]?.value ?? ''
    sub = verbs[verb]
    args2 = rest.slice(1)
    if (!sub) return refused(`git ${name.value} ${verb} is not in the read-only list`)
  }
  if (name.value === 'archive') {
    // Not read-only (it writes an archive), but it reads the whole tree: deny rules must see that.
    const verdict = refused('git archive is not in the read-only list')
    verdict.reads.push(dot())
    verdict.recursive = true
    return verdict
  }
  if (!sub) return refused(`git ${name.value} is not in the read-only list`)
  if (name.value === 'config') {
    const blob = configBlob(args2)
    if (blob) return blob
    if (!configReads(args2)) return configWrite(args2)
  }
  const parsed = parseOptions(args2, sub.options)
  if (parsed.refusal) return refused(`git ${name.value}: ${parsed.refusal}`, parsed)
  const problem = sub.refine?.(parsed.operands, parsed.seen)
  if (problem) return refused(problem, parsed)
  const verdict: TableVerdict = {
    reads: [...parsed.reads],
    writes: [...parsed.writes],
    recursive: false,
    unknownReads: parsed.unknownReads,
  }
  const content =
    sub.reads === 'content' || (sub.contentOptions ?? []).some((option) => parsed.seen.has(option))
  if (!content) return verdict
  // `git grep PATTERN [paths]`: the first operand is the pattern unless -e/-f gave it.
  const operands =
    name.value === 'grep' && !parsed.seen.has('-e') && !parsed.seen.has('-f')
      ? parsed.operands.slice(1)
      : parsed.operands
  const afterDashDash =
    parsed.dashDashAt === undefined
      ? []
      : operands.slice(Math.max(0, parsed.dashDashAt - (operands === parsed.operands ? 0 : 1)))
  const icase = globals.seen.has('--icase-pathspecs')
  const broad = operands.some((word) => broadPathspec(word, icase))
  const named = operands.filter((word) => !broadPathspec(word, icase))
  const revPaths = named.filter((word) => word.value.includes(':')).map(pathOf)
  verdict.reads.push(...named.map(pathOf))
  // A pathspec names folders as well as files (`git diff HEAD -- .` prints every file below).
  verdict.recursive = true
  // Without a named path it may print any tracked (with --untracked/--no-index, any) file below the cwd.
  if (broad || (name.value !== 'blame' && afterDashDash.length === 0 && revPaths.length === 0)) {
    verdict.reads.push(dot())
    verdict.recursive = true
  }
  return verdict
}

/** The git entry of the read-only table. */
export const GIT: ReadOnlyEntry = {
  names: ['git'],
  summary: `global options --no-pager, --no-optional-locks, --*-pathspecs only; subcommands ${Object.keys(SUBCOMMANDS).join(', ')}, stash list/show, worktree list, each with its own option allowlist (branch/tag list only, config get/list only; \`--output\` is a write); show, diff, blame, grep, cat-file and log -p read their paths (or the whole folder) as far as Read deny rules are concerned; in a folder other than the session's cwd git asks (another repository's config could run programs); in a repository whose own config names a diff, filter or merge driver, an include, another work tree or submodules, git asks; every proven git runs with the program-running keys overridden (docs/permissions.md)`,
  match: [
    'git status',
    'git log --oneline -n 5',
    'git log --oneline -5',
    'git diff HEAD~1',
    'git show HEAD:README.md',
    'git branch --list',
    'git branch -a',
    'git config --get user.name',
    'git --no-pager log --format=%H',
    'git blame -L 1,5 a.ts',
  ],
  notMatch: [
    'git -c core.pager=sh log',
    'git -C other status',
    'git --git-dir=x status',
    'git --work-tree=x status',
    'git diff --output=x',
    'git log --outp=x',
    'git log --ext-diff',
    'git grep --open-files-in=sh foo',
    'git grep -iOsh foo',
    'git grep -O foo',
    'git branch new',
    'git push',
    'git commit -m x',
    'git config user.name x',
    'git config --add a.b c',
    'git stash',
    'git log --show-signature',
    'git --help log',
  ],
  check: checkGit,
}
