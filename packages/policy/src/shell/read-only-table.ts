import { type OptionSpec, readArgs } from './command-args.js'
import type { ShellWord } from './types.js'

/** What a table entry says about one call: read-only with the operands it reads, or why not. */
export type TableVerdict =
  | { readOnly: true; files: ShellWord[]; recursive: boolean; unknownFiles?: boolean }
  | { readOnly: false; reason: string }

/** One command the read-only proof knows, with examples a test checks (like codex's execpolicy). */
export interface ReadOnlyEntry {
  names: readonly string[]
  /** What makes a call of it read-only, for docs/permissions.md. */
  summary: string
  /** Lines the proof must accept. */
  match: readonly string[]
  /** Lines the proof must refuse. */
  notMatch: readonly string[]
  /** Safe whatever extra arguments xargs or find -exec add. */
  anyArgsSafe?: boolean
  check: (args: readonly ShellWord[]) => TableVerdict
}

type Operands = 'files' | 'patternThenFiles' | 'text' | 'none'

/** An entry read by the generic option reader. */
function generic(
  options: OptionSpec & {
    operands: Operands
    recursive?: readonly string[] | true
    maxOperands?: number
    patternFlags?: readonly string[]
    /** With no operand it reads the cwd (ls, du, tree). */
    cwdDefault?: boolean
  },
): (args: readonly ShellWord[]) => TableVerdict {
  return (args) => {
    const read = readArgs(args, options)
    if (read.refusal) return { readOnly: false, reason: read.refusal }
    if (options.maxOperands !== undefined && read.positionals.length > options.maxOperands) {
      return { readOnly: false, reason: `more than ${options.maxOperands} operand(s) names an output file` }
    }
    const recursive =
      options.recursive === true || (options.recursive ?? []).some((flag) => read.flags.includes(flag))
    switch (options.operands) {
      case 'none':
        return read.positionals.length === 0
          ? { readOnly: true, files: [], recursive }
          : { readOnly: false, reason: 'operands change state' }
      case 'text':
        return { readOnly: true, files: [], recursive }
      case 'files':
        return {
          readOnly: true,
          files: read.positionals.length === 0 && options.cwdDefault ? [dot()] : read.positionals,
          recursive,
        }
      case 'patternThenFiles': {
        const hasPatternFlag = (options.patternFlags ?? []).some((flag) => read.values.has(flag))
        return {
          readOnly: true,
          files: hasPatternFlag ? read.positionals : read.positionals.slice(1),
          recursive,
        }
      }
      default: {
        const unreachable: never = options.operands
        return unreachable
      }
    }
  }
}

const SED_ADDRESS = String.raw`(?:\d+|\$|/(?:[^/\\\n]|\\.)*/)(?:~\d+)?`
const SED_STATEMENT = new RegExp(
  String.raw`^(?:${SED_ADDRESS}(?:,(?:${SED_ADDRESS}|[+~]\d+))?)?\s*!?\s*(?:[pdqQn=lhHgGxNDPz{}]|s/(?:[^/\\\n]|\\.)*/(?:[^/\\\n]|\\.)*/[gpiImM0-9]*|y/(?:[^/\\\n]|\\.)*/(?:[^/\\\n]|\\.)*/)?$`,
)

/** A sed script is read-only when every statement is a print/delete/substitute without `w`/`e`. */
export function sedScriptIsReadOnly(script: string): boolean {
  return script
    .split(/[;\n]/)
    .map((statement) => statement.trim())
    .every((statement) => SED_STATEMENT.test(statement))
}

function checkSed(args: readonly ShellWord[]): TableVerdict {
  const read = readArgs(args, {
    valueFlags: ['-e', '--expression', '-l', '--line-length'],
    forbidden: ['-i', '-I', '--in-place', '-f', '--file', '-c', '--copy'],
  })
  if (read.refusal) return { readOnly: false, reason: read.refusal }
  const scripts = [...(read.values.get('-e') ?? []), ...(read.values.get('--expression') ?? [])]
  const positionals = [...read.positionals]
  if (scripts.length === 0) {
    const first = positionals.shift()
    if (!first) return { readOnly: false, reason: 'sed without a script' }
    scripts.push(first)
  }
  for (const script of scripts) {
    if (!script.literal) return { readOnly: false, reason: 'the sed script is not a plain string' }
    if (!sedScriptIsReadOnly(script.value)) {
      return { readOnly: false, reason: 'the sed script may write or run commands (w, W, e, r)' }
    }
  }
  return { readOnly: true, files: positionals, recursive: false }
}

function checkAwk(args: readonly ShellWord[]): TableVerdict {
  const read = readArgs(args, {
    valueFlags: ['-F', '-v', '--assign', '--field-separator'],
    forbidden: ['-f', '--file', '-i', '--include', '-l', '--load', '-E', '--exec'],
  })
  if (read.refusal) return { readOnly: false, reason: read.refusal }
  const [program, ...files] = read.positionals
  if (!program?.literal) return { readOnly: false, reason: 'the awk program is not a plain string' }
  const text = program.value
  if (/system|getline|\||fflush|close|@/.test(text) || (/>/.test(text) && /print/.test(text))) {
    return { readOnly: false, reason: 'the awk program may run commands or write files' }
  }
  return { readOnly: true, files, recursive: false }
}

const FIND_FORBIDDEN = [
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-delete',
  '-fprint',
  '-fprint0',
  '-fprintf',
  '-fls',
]

function checkFind(args: readonly ShellWord[]): TableVerdict {
  const files: ShellWord[] = []
  let index = 0
  while (index < args.length && !/^[-(!]/.test(args[index]?.value ?? ''))
    files.push(args[index++] as ShellWord)
  for (; index < args.length; index++) {
    const word = args[index] as ShellWord
    if (FIND_FORBIDDEN.includes(word.value))
      return { readOnly: false, reason: `find ${word.value} changes state` }
    if (!word.literal && !word.glob)
      return { readOnly: false, reason: `'${word.value}' may expand to an action` }
  }
  return { readOnly: true, files: files.length > 0 ? files : [dot()], recursive: true }
}

function dot(): ShellWord {
  return { value: '.', literal: true, glob: false, tilde: false }
}

const GIT_READ_ONLY: Readonly<Record<string, (args: readonly ShellWord[]) => string | undefined>> = {
  status: () => undefined,
  log: () => undefined,
  diff: () => undefined,
  show: () => undefined,
  shortlog: () => undefined,
  blame: () => undefined,
  describe: () => undefined,
  'rev-parse': () => undefined,
  'rev-list': () => undefined,
  'ls-files': () => undefined,
  'ls-tree': () => undefined,
  'cat-file': () => undefined,
  'merge-base': () => undefined,
  'show-ref': () => undefined,
  grep: () => undefined,
  branch: (args) => {
    const listing = new Set([
      '-a',
      '--all',
      '-r',
      '--remotes',
      '-v',
      '-vv',
      '--verbose',
      '--list',
      '-l',
      '--show-current',
      '--merged',
      '--no-merged',
      '--contains',
      '--no-contains',
      '--points-at',
      '--no-color',
      '--color',
      '--column',
      '--no-column',
      '--sort',
      '--format',
    ])
    const listMode = args.some((word) => word.value === '--list' || word.value === '-l')
    for (const word of args) {
      const flag = word.value.split('=')[0] as string
      if (word.value.startsWith('-')) {
        if (!listing.has(flag)) return `git branch ${flag} changes branches`
      } else if (!listMode) return 'git branch <name> creates a branch (use --list)'
    }
    return undefined
  },
  tag: (args) => {
    const listMode = args.length === 0 || args.some((word) => word.value === '-l' || word.value === '--list')
    return listMode ? undefined : 'git tag without --list creates or deletes tags'
  },
  remote: (args) =>
    args.every((word) => word.value === '-v' || word.value === '--verbose')
      ? undefined
      : 'git remote changes remotes',
  stash: (args) =>
    args[0]?.value === 'list' || args[0]?.value === 'show' ? undefined : 'git stash changes the tree',
  worktree: (args) => (args[0]?.value === 'list' ? undefined : 'git worktree changes worktrees'),
  config: (args) =>
    args.some((word) => ['--get', '--get-all', '--get-regexp', '--list', '-l'].includes(word.value))
      ? undefined
      : 'git config without --get/--list writes configuration',
}
const GIT_FORBIDDEN = [
  '--output',
  '--ext-diff',
  '--textconv',
  '-O',
  '--open-files-in-pager',
  '--exec',
  '--upload-pack',
  '--receive-pack',
]

function checkGit(args: readonly ShellWord[]): TableVerdict {
  let index = 0
  let elsewhere = false
  while (index < args.length) {
    const word = args[index] as ShellWord
    const value = word.value
    if (!word.literal) return { readOnly: false, reason: `'${value}' is not a plain argument` }
    if (value === '-c' || value.startsWith('--config-env') || value.startsWith('--exec-path')) {
      return { readOnly: false, reason: `git ${value} can run configured commands` }
    }
    if (value === '-C' || value === '--git-dir' || value === '--work-tree' || value === '--namespace') {
      elsewhere = true
      index += 2
      continue
    }
    if (value.startsWith('-')) {
      if (value.startsWith('--git-dir=') || value.startsWith('--work-tree=')) elsewhere = true
      index++
      continue
    }
    break
  }
  const sub = args[index]?.value
  const rest = args.slice(index + 1)
  if (sub === undefined) return { readOnly: true, files: [], recursive: false }
  const check = GIT_READ_ONLY[sub]
  if (!check) return { readOnly: false, reason: `git ${sub} is not in the read-only list` }
  for (const word of rest) {
    if (!word.literal && !word.glob)
      return { readOnly: false, reason: `'${word.value}' is not a plain argument` }
    const flag = word.value.split('=')[0] as string
    if (GIT_FORBIDDEN.includes(flag))
      return { readOnly: false, reason: `git ${sub} ${flag} writes or runs commands` }
  }
  const refusal = check(rest)
  if (refusal) return { readOnly: false, reason: refusal }
  // git reads the repository; only -C/--git-dir point elsewhere, and then we cannot say where.
  return elsewhere
    ? { readOnly: true, files: [], recursive: true, unknownFiles: true }
    : { readOnly: true, files: [], recursive: false }
}

/**
 * The commands the read-only proof accepts, with the options that keep them read-only. A command
 * not listed here is never proven read-only. Each entry's examples are checked by a test.
 */
export const READ_ONLY_COMMANDS: readonly ReadOnlyEntry[] = [
  {
    names: ['ls'],
    summary: 'any options; operands are folders read (`-R` recursively)',
    match: ['ls', 'ls -la src', 'ls -R'],
    notMatch: ['ls > files.txt'],
    anyArgsSafe: true,
    check: generic({
      operands: 'files',
      cwdDefault: true,
      recursive: ['-R', '--recursive'],
      valueFlags: [
        '-I',
        '--ignore',
        '-w',
        '--width',
        '-T',
        '--tabsize',
        '--format',
        '--sort',
        '--time-style',
        '--color',
        '--block-size',
        '--hide',
      ],
    }),
  },
  {
    names: ['cat', 'tac', 'nl', 'rev'],
    summary: 'any options; operands are files read',
    match: ['cat README.md', 'cat -n a b', 'tac log'],
    notMatch: ['cat a > b', 'cat a >> b'],
    anyArgsSafe: true,
    check: generic({ operands: 'files', valueFlags: ['-s', '-b', '-v', '-w', '-i'] }),
  },
  {
    names: ['head', 'tail'],
    summary: 'any options (`-n`, `-c`, `-f`); operands are files read',
    match: ['head -n 20 a.ts', 'tail -f log.txt', 'head -5 x'],
    notMatch: ['head a | tee b'],
    anyArgsSafe: true,
    check: generic({
      operands: 'files',
      valueFlags: [
        '-n',
        '-c',
        '--lines',
        '--bytes',
        '--pid',
        '-s',
        '--sleep-interval',
        '--max-unchanged-stats',
      ],
    }),
  },
  {
    names: ['wc'],
    summary: 'any options; operands are files read',
    match: ['wc -l src/a.ts', 'wc'],
    notMatch: ['wc -l a > count'],
    anyArgsSafe: true,
    check: generic({ operands: 'files' }),
  },
  {
    names: ['grep', 'egrep', 'fgrep'],
    summary: 'any options; the first operand is the pattern unless `-e`/`-f`; `-r` reads folders',
    match: ['grep -rn TODO src', 'grep -e a -e b file', 'grep foo'],
    notMatch: ['grep foo a > b'],
    anyArgsSafe: true,
    check: generic({
      operands: 'patternThenFiles',
      patternFlags: ['-e', '-f', '--regexp', '--file'],
      recursive: ['-r', '-R', '--recursive', '--dereference-recursive'],
      valueFlags: [
        '-e',
        '-f',
        '--regexp',
        '--file',
        '-m',
        '--max-count',
        '-A',
        '-B',
        '-C',
        '--context',
        '--after-context',
        '--before-context',
        '--include',
        '--exclude',
        '--exclude-dir',
        '--exclude-from',
        '-d',
        '--directories',
        '-D',
        '--devices',
        '--label',
        '--binary-files',
        '--color',
        '--colour',
      ],
    }),
  },
  {
    names: ['rg'],
    summary: 'without `--pre`/`--pre-glob` (they run a program per file); always recursive',
    match: ['rg TODO', 'rg -n -g "*.ts" foo src', 'rg --files'],
    notMatch: ['rg --pre ./x foo', 'rg --pre=cat foo'],
    check: generic({
      operands: 'patternThenFiles',
      patternFlags: ['-e', '-f', '--regexp', '--file', '--files', '--type-list'],
      recursive: true,
      forbidden: ['--pre', '--pre-glob'],
      valueFlags: [
        '-e',
        '-f',
        '--regexp',
        '--file',
        '-g',
        '--glob',
        '--iglob',
        '-t',
        '--type',
        '-T',
        '--type-not',
        '-m',
        '--max-count',
        '-A',
        '-B',
        '-C',
        '--context',
        '-M',
        '--max-columns',
        '-j',
        '--threads',
        '--max-depth',
        '-d',
        '-r',
        '--replace',
        '--sort',
        '--sortr',
        '--color',
        '--colors',
        '-E',
        '--encoding',
        '--ignore-file',
        '--type-add',
        '--path-separator',
        '--max-filesize',
        '--pre',
        '--pre-glob',
      ],
    }),
  },
  {
    names: ['find'],
    summary: 'without -exec, -execdir, -ok, -okdir, -delete, -fprint, -fprint0, -fprintf, -fls',
    match: ['find . -name "*.ts"', 'find src -type f -newer x'],
    notMatch: ['find . -delete', 'find . -exec rm {} ;', 'find . -fprint out'],
    check: checkFind,
  },
  {
    names: ['git'],
    summary:
      'status, log, diff, show, shortlog, blame, describe, rev-parse, rev-list, ls-files, ls-tree, cat-file, merge-base, show-ref, grep, branch (listing), tag (listing), remote -v, stash list/show, worktree list, config --get/--list; never with `-c`, `--config-env`, `--exec-path`, `--output`, `--ext-diff`, `--textconv`, `-O`',
    match: [
      'git status',
      'git log --oneline -5',
      'git diff HEAD~1',
      'git branch --list',
      'git branch -a',
      'git config --get user.name',
    ],
    notMatch: [
      'git -c core.pager=sh log',
      'git diff --output=x',
      'git log --ext-diff',
      'git branch new',
      'git push',
      'git commit -m x',
      'git config user.name x',
      'git stash',
    ],
    check: checkGit,
  },
  {
    names: ['sed'],
    summary:
      'without `-i`/`--in-place`/`-f`; every script statement is p, d, q, =, n, s/…/…/ (flags g p i I m M and numbers) or y; no w, W, e, r, R',
    match: ["sed -n '1,20p' a.ts", "sed 's/a/b/g' x", "sed -n -e '/foo/p' f"],
    notMatch: [
      "sed -i 's/a/b/' x",
      "sed 's/a/b/w out' x",
      "sed 'e ls' x",
      'sed -f script.sed x',
      "sed '1r /etc/passwd' x",
    ],
    check: checkSed,
  },
  {
    names: ['awk', 'gawk', 'mawk', 'nawk'],
    summary:
      'a literal program without system, getline, pipes, fflush, close, @-directives or print redirection; no `-f`',
    match: ["awk '{print $1}' a.txt", "awk -F: 'NF > 2' x"],
    notMatch: ['awk \'BEGIN{system("rm x")}\'', 'awk \'{print > "out"}\' a', 'awk -f prog.awk a'],
    check: checkAwk,
  },
  {
    names: ['sort'],
    summary: 'without `-o`/`--output`/`--compress-program`',
    match: ['sort -u names.txt', 'sort -k2 -t, x'],
    notMatch: ['sort -o out in', 'sort --output=out in', 'sort --compress-program=sh x'],
    anyArgsSafe: false,
    check: generic({
      operands: 'files',
      forbidden: ['-o', '--output', '--compress-program'],
      valueFlags: [
        '-k',
        '--key',
        '-t',
        '--field-separator',
        '-S',
        '--buffer-size',
        '-T',
        '--temporary-directory',
        '--parallel',
        '--batch-size',
        '--files0-from',
        '--sort',
        '--random-source',
      ],
    }),
  },
  {
    names: ['uniq'],
    summary: 'at most one operand (a second one is an output file)',
    match: ['uniq -c x'],
    notMatch: ['uniq in out'],
    check: generic({
      operands: 'files',
      maxOperands: 1,
      valueFlags: [
        '-f',
        '-s',
        '-w',
        '--skip-fields',
        '--skip-chars',
        '--check-chars',
        '--group',
        '--all-repeated',
      ],
    }),
  },
  {
    names: [
      'cut',
      'column',
      'comm',
      'cmp',
      'diff',
      'paste',
      'join',
      'fold',
      'fmt',
      'expand',
      'unexpand',
      'od',
      'hexdump',
      'strings',
      'file',
      'stat',
      'md5sum',
      'sha1sum',
      'sha256sum',
      'sha512sum',
      'cksum',
      'b2sum',
    ],
    summary: 'any options; operands are files read',
    match: ['cut -d, -f1 x.csv', 'diff a b', 'stat src', 'sha256sum a'],
    notMatch: ['diff a b > p.diff'],
    anyArgsSafe: true,
    check: generic({
      operands: 'files',
      valueFlags: [
        '-d',
        '-f',
        '-b',
        '-c',
        '--delimiter',
        '--fields',
        '-s',
        '-t',
        '-n',
        '-N',
        '-j',
        '-A',
        '-w',
        '-o',
        '-1',
        '-2',
        '-e',
        '-F',
        '--format',
        '--printf',
        '-m',
        '-I',
        '--label',
        '-x',
        '-X',
        '--from-file',
        '--to-file',
      ],
    }),
  },
  {
    names: ['base64', 'base32', 'basenc'],
    summary: 'without `-o`/`--output` (BSD output file); operands are files read',
    match: ['base64 key.bin', 'base64 -d x'],
    notMatch: ['base64 -o out in', 'base64 in > out'],
    anyArgsSafe: false,
    check: generic({
      operands: 'files',
      forbidden: ['-o', '--output'],
      valueFlags: ['-w', '--wrap', '-b', '-i', '--input'],
    }),
  },
  {
    names: ['xxd'],
    summary: 'at most one operand (a second one is an output file)',
    match: ['xxd a.bin'],
    notMatch: ['xxd a.bin out'],
    check: generic({
      operands: 'files',
      maxOperands: 1,
      valueFlags: ['-l', '-s', '-c', '-g', '-o', '-n', '-C', '-cols', '-len', '-seek'],
    }),
  },
  {
    names: ['tree'],
    summary: 'without `-o` (output file); recursive',
    match: ['tree -L 2 src'],
    notMatch: ['tree -o out.txt'],
    check: generic({
      operands: 'files',
      cwdDefault: true,
      recursive: true,
      forbidden: ['-o'],
      valueFlags: ['-L', '-P', '-I', '--charset', '--filelimit', '--timefmt', '-H', '--sort'],
    }),
  },
  {
    names: ['du'],
    summary: 'any options; operands are folders read recursively',
    match: ['du -sh src'],
    notMatch: ['du -sh > sizes'],
    anyArgsSafe: true,
    check: generic({
      operands: 'files',
      cwdDefault: true,
      recursive: true,
      valueFlags: [
        '-d',
        '--max-depth',
        '-B',
        '--block-size',
        '-t',
        '--threshold',
        '--exclude',
        '-X',
        '--exclude-from',
        '--time-style',
        '--files0-from',
      ],
    }),
  },
  {
    names: [
      'echo',
      'printf',
      'pwd',
      'true',
      'false',
      'which',
      'type',
      'whereis',
      'basename',
      'dirname',
      'realpath',
      'readlink',
      'seq',
      'whoami',
      'id',
      'groups',
      'uname',
      'arch',
      'nproc',
      'printenv',
      'tty',
      'locale',
      'test',
      '[',
      '[[',
      'expr',
      'sleep',
      'tr',
      'yes',
      'cd',
      'ps',
      'df',
      'free',
      'uptime',
      'jobs',
    ],
    summary: 'operands are text, not files (tr reads standard input only)',
    match: ['echo hello', 'pwd', 'which node', 'test -f x', '[ -d src ]', 'cd src && ls'],
    notMatch: ['echo x > f', 'printf x >> f'],
    anyArgsSafe: true,
    check: generic({ operands: 'text' }),
  },
  {
    names: ['date'],
    summary: 'without `-s`/`--set`',
    match: ['date', 'date +%s', 'date -u'],
    notMatch: ['date -s "2020-01-01"', 'date --set=now'],
    check: generic({
      operands: 'text',
      forbidden: ['-s', '--set'],
      valueFlags: ['-d', '--date', '-r', '--reference', '-I', '--iso-8601', '-f', '--file'],
    }),
  },
  {
    names: ['hostname'],
    summary: 'without an operand (which would set the name)',
    match: ['hostname', 'hostname -f'],
    notMatch: ['hostname newname'],
    check: generic({ operands: 'none' }),
  },
  {
    names: ['command'],
    summary: 'only `command -v`/`-V` (a lookup); other uses run the command',
    match: ['command -v node'],
    notMatch: ['command rm x'],
    check: (args) =>
      args[0]?.value === '-v' || args[0]?.value === '-V'
        ? { readOnly: true, files: [], recursive: false }
        : { readOnly: false, reason: 'command runs its operand' },
  },
  {
    names: ['env'],
    summary: 'without a command it only prints the environment',
    match: ['env'],
    notMatch: ['env rm x', 'env FOO=1'],
    check: generic({ operands: 'none' }),
  },
  {
    names: ['jq'],
    summary: 'any options; the first operand is the filter, the rest are files read',
    match: ["jq '.name' package.json", 'jq -r .x a.json'],
    notMatch: ['jq . a.json > b.json'],
    check: (args) => {
      const positionals: ShellWord[] = []
      for (let index = 0; index < args.length; index++) {
        const value = args[index]?.value ?? ''
        if (['--arg', '--argjson', '--slurpfile', '--rawfile'].includes(value)) index += 2
        else if (['--indent', '-f', '--from-file', '-L', '--tab'].includes(value))
          index += value === '--tab' ? 0 : 1
        else if (!value.startsWith('-')) positionals.push(args[index] as ShellWord)
      }
      return { readOnly: true, files: positionals.slice(1), recursive: false }
    },
  },
]

const BY_NAME = new Map<string, ReadOnlyEntry>()
for (const entry of READ_ONLY_COMMANDS) for (const name of entry.names) BY_NAME.set(name, entry)

/** The table entry of a command name, if the proof knows it. */
export function readOnlyEntry(name: string): ReadOnlyEntry | undefined {
  return BY_NAME.get(name)
}
