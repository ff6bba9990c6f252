import { type OptionSpec, readArgs } from './command-args.js'
import type { ShellWord } from './types.js'

/** What a table entry says about one call: read-only with the operands it reads, or why not. */
export type TableVerdict =
  | { readOnly: true; files: ShellWord[]; recursive: boolean; unknownFiles?: boolean }
  | { readOnly: false; reason: string }

type Operands = 'files' | 'patternThenFiles' | 'text' | 'none'

/** An entry read by the generic option reader. */
export function generic(
  options: OptionSpec & {
    operands: Operands
    recursive?: readonly string[] | true
    maxOperands?: number
    patternFlags?: readonly string[]
    /** With no operand it reads the cwd (ls, du, tree). */
    cwdDefault?: boolean
    /** Options whose value is a file read (`grep -f patterns`). */
    fileFlags?: readonly string[]
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
    const flagFiles = (options.fileFlags ?? []).flatMap((flag) => read.values.get(flag) ?? [])
    const verdict = operandVerdict(options, read, recursive)
    if (verdict.readOnly && flagFiles.length > 0) verdict.files = [...verdict.files, ...flagFiles]
    return verdict
  }
}

function operandVerdict(
  options: { operands: Operands; cwdDefault?: boolean; patternFlags?: readonly string[] },
  read: ReturnType<typeof readArgs>,
  recursive: boolean,
): TableVerdict {
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

export function checkSed(args: readonly ShellWord[]): TableVerdict {
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

export function checkAwk(args: readonly ShellWord[]): TableVerdict {
  const read = readArgs(args, {
    valueFlags: ['-F', '-v', '--assign', '--field-separator'],
    forbidden: ['-f', '--file', '-e', '--source', '-i', '--include', '-l', '--load', '-E', '--exec', '-W'],
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

export function checkFind(args: readonly ShellWord[]): TableVerdict {
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

export function dot(): ShellWord {
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

export function checkGit(args: readonly ShellWord[]): TableVerdict {
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
  // `diff --no-index` compares any two files on disk.
  if (elsewhere || rest.some((word) => word.value === '--no-index')) {
    return { readOnly: true, files: [], recursive: true, unknownFiles: true }
  }
  // Operands may be paths (`git log -- .env`, `git blame .env`) or `rev:path` (`git show HEAD:.env`):
  // count each as a file read, so path rules see them. `git grep --untracked` also reads the tree.
  const files: ShellWord[] = []
  // `git grep PATTERN [paths]`: the first operand is the pattern unless -e/-f gives it.
  let skipPattern = sub === 'grep' && !rest.some((word) => word.value === '-e' || word.value === '-f')
  for (const word of rest) {
    if (word.value.startsWith('-')) continue
    if (skipPattern) {
      skipPattern = false
      continue
    }
    const colon = word.value.indexOf(':')
    files.push(colon >= 0 ? { ...word, value: word.value.slice(colon + 1) || '.' } : word)
  }
  const untracked =
    sub === 'grep' &&
    rest.some((word) => word.value === '--untracked' || word.value === '--no-exclude-standard')
  return { readOnly: true, files: untracked && files.length === 0 ? [dot()] : files, recursive: untracked }
}
