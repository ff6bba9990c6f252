import { normalizePath, resolvePath } from '../paths/normalize.js'
import { readArgs } from './command-args.js'
import { createdInto, namesContents, treeInto } from './created-names.js'
import { followsLinks } from './follows-links.js'
import { options, parseOptions } from './options.js'
import { readOnlyEntry } from './read-only-table.js'
import type { Target } from './target.js'
import type { ShellRedirect, ShellWord } from './types.js'
import { type EffectiveCommand, unwrapLine } from './unwrap.js'
import { writeOptionTargets } from './write-options.js'

export type { Target }

/** What the policy needs to know about one effective command. */
export interface CommandFacts {
  /** The words joined by spaces: what Bash rules match against. */
  text: string
  words: ShellWord[]
  /** Proven read-only (the line must also be complete for the proof to count). */
  readOnly: boolean
  /** Why it is not proven read-only. */
  reason?: string
  reads: Target[]
  writes: Target[]
  /** Reads descend into the folders named (grep -r, find, rg). */
  recursive: boolean
  /** A simple file command (mkdir, touch, cp, mv, rmdir) whose every target is known. */
  fileCommand: boolean
  elevated: boolean
  /** Receives arguments the line does not show (xargs, find -exec). */
  unknownArgs: boolean
  /** `NAME=value` words before it (also those given to `env`). */
  assignments: ShellWord[]
  /**
   * For a command not proven read-only: every literal operand read as a path (also the part after
   * `=` or `@`, as in `--file=.env` or `-d @.env`). Its use is unknown, so deny and ask path rules
   * match these too.
   */
  mentions: Target[]
  wrappers: string[]
  /**
   * Writes the command makes besides its purpose: redirections and write-through options
   * (`--output=F`, `sed w F`, `curl -o F`). They need edit permission whatever rule allowed it.
   */
  writeThrough: Target[]
  /** The text without options before the subcommand (`git -c k=v push` → `git push`), for deny and ask rules. */
  ruleText?: string
}

/** The facts of a whole line. */
export interface LineFacts {
  commands: CommandFacts[]
  complete: boolean
  problems: string[]
}

const HARMLESS_TARGETS = new Set([
  '/dev/null',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/tty',
  '/dev/fd/1',
  '/dev/fd/2',
])
/** Assignments that cannot change what a command runs. */
export const SAFE_ASSIGNMENT = /^(LANG|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|COLUMNS|LINES|TERM)=/
/** Paths that alias other files (a process's cwd, root, descriptors) or print another process's memory. */
const ALIASING = /^\/proc\/(?:self|thread-self|\d+)(?:\/|$)|^\/dev\/fd\/(?:[3-9]|\d\d)/
const CD_OPTIONS = options('-L -P -e -@', { permute: false, abbreviations: false })
/** Commands whose scripts can write files or run programs. */
const SCRIPTED = new Set(['sed', 'awk', 'gawk', 'mawk', 'nawk'])
const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>'])

/** Lexes, unwraps and classifies a line run in `cwd`. Never throws. */
export function analyzeLine(line: string, cwd: string, home: string): LineFacts {
  const unwrapped = unwrapLine(line)
  let currentCwd: string | undefined = cwd
  const commands: CommandFacts[] = []
  for (const command of unwrapped.commands) {
    commands.push(analyzeCommand(command, currentCwd, home, currentCwd !== cwd))
    const name = command.words[0]
    if (name?.literal && (name.value === 'cd' || name.value === 'pushd'))
      currentCwd = cdTarget(command.words.slice(1), currentCwd, home)
  }
  return { commands, complete: unwrapped.complete, problems: unwrapped.problems }
}

/** Where `cd [-L|-P|-e|-@]… [--] [DIR]` goes; undefined when the line does not show it (`cd -`, `$DIR`). */
function cdTarget(args: ShellWord[], cwd: string | undefined, home: string): string | undefined {
  const parsed = parseOptions(args, CD_OPTIONS)
  if (parsed.refusal || parsed.operands.length > 1) return undefined
  const target = parsed.operands[0]
  if (!target) return home
  if (!target.literal || target.value === '-' || cwd === undefined) return undefined
  return resolveWord(target, cwd, home)
}

function resolveWord(word: ShellWord, cwd: string, home: string): string {
  if (word.tilde) return resolvePath(cwd, word.value, home)
  return word.value.startsWith('/') ? normalizePath(word.value) : normalizePath(`${cwd}/${word.value}`)
}

/** The file a word names, as far as the line shows. */
export function targetOf(word: ShellWord, cwd: string | undefined, home: string): Target {
  if (word.literal && (cwd !== undefined || word.value.startsWith('/') || word.tilde)) {
    const path = resolveWord(word, cwd ?? '/', home)
    // `/proc/self/cwd/.env`, `/proc/1/root/…`, `/dev/fd/3`: another name for any file.
    if (ALIASING.test(path)) return { kind: 'unknown', text: path }
    return { kind: 'path', path }
  }
  if (word.glob && !/[$`]/.test(word.value) && (cwd !== undefined || word.value.startsWith('/'))) {
    const fixed: string[] = []
    for (const segment of word.value.split('/')) {
      if (/[*?[\]{}]/.test(segment)) break
      fixed.push(segment)
    }
    const prefix = fixed.join('/') || (word.value.startsWith('/') ? '/' : '.')
    const base = resolveWord({ ...word, value: prefix }, cwd ?? '/', home)
    return { kind: 'glob', base, pattern: word.value }
  }
  return { kind: 'unknown', text: word.value }
}

function redirectTargets(redirects: ShellRedirect[], cwd: string | undefined, home: string) {
  const reads: Target[] = []
  const writes: Target[] = []
  for (const redirect of redirects) {
    const value = redirect.target.value
    switch (redirect.op) {
      case '<<':
      case '<<-':
      case '<<<':
        break
      case '>&':
      case '<&':
        // `2>&1`, `>&-` duplicate or close descriptors; `>&file` is `&>file`.
        if (/^(\d+-?|-)$/.test(value)) break
        if (redirect.op === '<&') reads.push(targetOf(redirect.target, cwd, home))
        else if (!HARMLESS_TARGETS.has(value)) writes.push(targetOf(redirect.target, cwd, home))
        break
      case '<':
        reads.push(targetOf(redirect.target, cwd, home))
        break
      case '>':
      case '>>':
      case '>|':
      case '&>':
      case '&>>':
      case '<>':
        if (redirect.op === '<>') reads.push(targetOf(redirect.target, cwd, home))
        if (!(redirect.target.literal && HARMLESS_TARGETS.has(value)))
          writes.push(targetOf(redirect.target, cwd, home))
        break
      default: {
        const unreachable: never = redirect.op
        return unreachable
      }
    }
  }
  return { reads, writes }
}

/** Words bash still evaluates as arithmetic or subscripts (`$((…))`, `$[…]`, `${a[…]}`, `${x:off}`). */
const ARITHMETIC = /\$\(\(|\$\[|\$\{[^}]*[[:]/

/** An expanding heredoc body with arithmetic in it, as a word for the reason. */
function heredocArithmetic(command: EffectiveCommand): ShellWord | undefined {
  const redirect = command.redirects.find(
    (candidate) => candidate.expands === true && ARITHMETIC.test(candidate.body ?? ''),
  )
  return redirect ? { value: redirect.body ?? '', literal: false, glob: false, tilde: false } : undefined
}

/** A word bash still evaluates as arithmetic. */
function evaluated(word: ShellWord): boolean {
  return !word.literal && ARITHMETIC.test(word.value)
}

/** Marks a command unproven, with its mentions and, for an operand the shell expands, an unknown read. */
function refuseProof(
  facts: CommandFacts,
  command: EffectiveCommand,
  cwd: string | undefined,
  home: string,
  reason: string,
): CommandFacts {
  facts.readOnly = false
  facts.reason = reason
  facts.mentions = mentionsOf(command, cwd, home)
  // An operand the shell still expands (`cat $x`, `cat $(echo .env)`) may name any file.
  if (
    command.words.some((word, index) => index > 0 && !word.literal) ||
    command.assignments.some((word) => !word.literal)
  )
    facts.reads.push({ kind: 'unknown', text: '(an argument the shell expands)' })
  return facts
}

function analyzeCommand(
  command: EffectiveCommand,
  cwd: string | undefined,
  home: string,
  movedCwd: boolean,
): CommandFacts {
  const { reads, writes } = redirectTargets(command.redirects, cwd, home)
  const facts: CommandFacts = {
    text: command.words.map((word) => word.value).join(' '),
    words: command.words,
    readOnly: false,
    reads,
    writes,
    recursive: false,
    fileCommand: false,
    elevated: command.elevated,
    unknownArgs: command.unknownArgs,
    assignments: command.assignments,
    mentions: [],
    wrappers: command.wrappers,
    writeThrough: [...writes],
  }
  const ruleText = ruleTextOf(command.words)
  if (ruleText !== undefined) facts.ruleText = ruleText
  const notReadOnly = (reason: string): CommandFacts => refuseProof(facts, command, cwd, home, reason)
  const fileCommand = simpleFileCommand(command, cwd, home)
  if (fileCommand) {
    facts.fileCommand = true
    // `cp -r dir /tmp/x` reads every file below dir (deny rules must see it, even in bypass).
    facts.recursive = fileCommand.recursive
    facts.reads.push(...fileCommand.reads)
    facts.writes.push(...fileCommand.writes)
  } else {
    // Not simple enough for acceptEdits, but its targets still matter (protected paths, deny rules, scope).
    const other = otherTargets(command, cwd, home)
    if (other.recursive) facts.recursive = true
    facts.reads.push(...other.reads)
    facts.writes.push(...other.writes)
    facts.writeThrough.push(...other.through)
  }
  const name = command.words[0]
  // Options that write whatever rule allowed the command (`git log --output=F`, `sed 's/a/b/w F'`).
  const entry = name?.literal && !fileCommand ? readOnlyEntry(name.value) : undefined
  const verdict = entry ? entry.check(command.words.slice(1)) : undefined
  // The write-through table: write options the proof refuses but an allow rule would cover
  // (`find -fprint F`, `find -delete`, `gawk --dump-variables=F`).
  const optionWrites =
    name?.literal && !fileCommand
      ? writeOptionTargets(name.value, command.words.slice(1), verdict?.refusal !== undefined)
      : undefined
  for (const file of optionWrites?.files ?? []) {
    const target = targetOf(file, cwd, home)
    facts.writes.push(target)
    facts.writeThrough.push(target)
  }
  // A sed or awk script the proof refused (`sed -f F`, `sed 1e…`, `awk '{print > F}'`, `system()`)
  // may write any file.
  const scripted = name?.literal === true && SCRIPTED.has(name.value) && verdict?.refusal !== undefined
  if (optionWrites?.unknown || scripted) {
    const target: Target = { kind: 'unknown', text: `(a file ${name?.value} writes through an option)` }
    facts.writes.push(target)
    facts.writeThrough.push(target)
  }
  if (verdict) {
    for (const file of verdict.writes) {
      const target = targetOf(file, cwd, home)
      facts.writes.push(target)
      facts.writeThrough.push(target)
    }
    if (verdict.refusal !== undefined || verdict.writes.length > 0) {
      for (const file of verdict.reads) if (file.value !== '-') facts.reads.push(targetOf(file, cwd, home))
      // A refused folder-wide read (`git archive`) still reaches every file below, for deny rules.
      if (verdict.recursive) facts.recursive = true
    }
    if (verdict.unknownReads && (verdict.refusal !== undefined || verdict.writes.length > 0))
      facts.reads.push({ kind: 'unknown', text: '(files the line does not name)' })
  }
  if (facts.writes.length > 0 && !fileCommand) {
    return notReadOnly(
      `${command.redirects.some((r) => WRITE_OPS.has(r.op)) ? 'a redirection' : 'it'} writes a file`,
    )
  }
  if (command.elevated) return notReadOnly('it runs as another user')
  for (const assignment of command.assignments) {
    if (!assignment.literal || !SAFE_ASSIGNMENT.test(assignment.value)) {
      return notReadOnly(`the assignment ${assignment.value.split('=')[0]}=… can change what runs`)
    }
  }
  const arithmetic =
    command.words.find(evaluated) ??
    command.assignments.find(evaluated) ??
    command.redirects.find((redirect) => evaluated(redirect.target))?.target ??
    heredocArithmetic(command)
  if (arithmetic)
    return notReadOnly(`'${arithmetic.value}' is evaluated as arithmetic (subscripts run commands)`)
  if (!name) {
    return command.assignments.length > 0
      ? notReadOnly('it sets shell variables')
      : { ...facts, readOnly: writes.length === 0 }
  }
  if (!name.literal) return notReadOnly('the command name is computed')
  if (fileCommand) return notReadOnly(`${name.value} changes files`)
  if (!entry || !verdict) return notReadOnly(`${name.value} is not in the read-only table`)
  if (command.unknownArgs && !entry.anyArgsSafe) {
    return notReadOnly(`${name.value} gets arguments the line does not show (${command.wrappers.join(', ')})`)
  }
  if (verdict.refusal !== undefined) return notReadOnly(verdict.refusal)
  if (name.value === 'git' && movedCwd) {
    return notReadOnly('git in a folder other than the session cwd may use another repository and its config')
  }
  if (verdict.recursive && followsLinks(name.value, command.words.slice(1))) {
    // What it walks still counts for deny rules (in every mode), and a link may lead anywhere.
    for (const file of verdict.reads) if (file.value !== '-') facts.reads.push(targetOf(file, cwd, home))
    if (verdict.reads.length === 0)
      facts.reads.push(cwd === undefined ? { kind: 'unknown', text: '.' } : { kind: 'path', path: cwd })
    facts.reads.push({ kind: 'unknown', text: '(wherever a symbolic link below leads)' })
    facts.recursive = true
    return notReadOnly(
      `${name.value} follows symbolic links while it walks folders (a link may lead anywhere)`,
    )
  }
  facts.readOnly = true
  facts.recursive = verdict.recursive
  for (const file of verdict.reads) {
    if (file.value === '-') continue
    facts.reads.push(targetOf(file, cwd, home))
  }
  if (verdict.unknownReads || command.unknownArgs)
    facts.reads.push({ kind: 'unknown', text: '(arguments not shown)' })
  // grep/rg without file operands read the cwd recursively when recursive, else standard input.
  if (verdict.recursive && verdict.reads.length === 0 && !verdict.unknownReads) {
    facts.reads.push(cwd === undefined ? { kind: 'unknown', text: '.' } : { kind: 'path', path: cwd })
  }
  return facts
}

/** Options before the subcommand that a Bash deny rule must see past (`git -c k=v push`). */
const GLOBAL_VALUE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  git: [
    '-c',
    '-C',
    '--git-dir',
    '--work-tree',
    '--namespace',
    '--config-env',
    '--exec-path',
    '--super-prefix',
  ],
  npm: ['--registry', '--prefix', '-C', '--userconfig', '--cache', '--loglevel', '-w', '--workspace'],
  pnpm: ['-C', '--dir', '--filter', '-F', '--registry', '--reporter', '--loglevel'],
  yarn: ['--cwd', '--registry'],
  cargo: ['--manifest-path', '--config', '-Z', '-C', '--color'],
  docker: ['-H', '--host', '--context', '-c', '--config', '-l', '--log-level'],
  kubectl: ['-n', '--namespace', '--context', '--kubeconfig', '--cluster', '--user', '-s', '--server'],
  go: ['-C'],
}

/**
 * The command as a deny rule should see it, without the options before its subcommand
 * (`git -c k=v push` → `git push`); undefined when there are none.
 */
function ruleTextOf(words: readonly ShellWord[]): string | undefined {
  const name = words[0]
  const values = name?.literal ? GLOBAL_VALUE_OPTIONS[name.value] : undefined
  if (!name || !values) return undefined
  let index = 1
  while (index < words.length) {
    const value = (words[index] as ShellWord).value
    if (!value.startsWith('-') || value === '-') break
    if (value === '--') {
      index++
      break
    }
    index += values.includes(value) ? 2 : 1
  }
  if (index === 1) return undefined
  return [name.value, ...words.slice(index).map((word) => word.value)].join(' ')
}

const FILE_COMMANDS: Readonly<Record<string, { flags: readonly string[]; values: readonly string[] }>> = {
  mkdir: { flags: ['-p', '--parents', '-v', '--verbose'], values: ['-m', '--mode'] },
  touch: {
    flags: ['-a', '-m', '-c', '--no-create', '-h'],
    values: ['-d', '--date', '-t', '-r', '--reference'],
  },
  cp: {
    flags: [
      '-r',
      '-R',
      '--recursive',
      '-f',
      '--force',
      '-i',
      '-n',
      '--no-clobber',
      '-p',
      '-v',
      '--verbose',
      '-a',
      '--archive',
      '-u',
      '--update',
      '-L',
      '-P',
      '-H',
      '-T',
      '--no-target-directory',
    ],
    values: ['-t', '--target-directory'],
  },
  mv: {
    flags: [
      '-f',
      '--force',
      '-i',
      '-n',
      '--no-clobber',
      '-v',
      '--verbose',
      '-u',
      '--update',
      '-T',
      '--no-target-directory',
    ],
    values: ['-t', '--target-directory'],
  },
  rmdir: { flags: ['-p', '--parents', '-v', '--verbose'], values: [] },
}

/** The reads and writes of mkdir/touch/cp/mv/rmdir when every option is known and every target determined. */
function simpleFileCommand(command: EffectiveCommand, cwd: string | undefined, home: string) {
  const name = command.words[0]
  const spec = name?.literal ? FILE_COMMANDS[name.value] : undefined
  if (!spec || !name || command.elevated || command.unknownArgs || command.assignments.length > 0)
    return undefined
  const read = readArgs(command.words.slice(1), { valueFlags: spec.values })
  if (read.refusal) return undefined
  if (read.flags.some((flag) => !spec.flags.includes(flag) && !spec.values.includes(flag))) return undefined
  const targetDir = read.values.get('-t')?.[0] ?? read.values.get('--target-directory')?.[0]
  const operands = read.positionals
  if (operands.length === 0 && !targetDir) return undefined
  const reads: Target[] = []
  const writes: Target[] = []
  const isCopyOrMove = name.value === 'cp' || name.value === 'mv'
  const destination = isCopyOrMove ? (targetDir ?? operands[operands.length - 1]) : undefined
  const sources = isCopyOrMove && !targetDir ? operands.slice(0, -1) : operands
  if (isCopyOrMove && (!destination || sources.length === 0)) return undefined
  const sourceTargets: Array<readonly [ShellWord, Target]> = []
  for (const operand of sources) {
    const target = targetOf(operand, cwd, home)
    if (target.kind === 'unknown') return undefined
    if (name.value === 'cp') reads.push(target)
    else if (target.kind === 'glob') return undefined
    else writes.push(target)
    sourceTargets.push([operand, target])
  }
  if (destination) {
    const target = targetOf(destination, cwd, home)
    if (target.kind !== 'path') return undefined
    writes.push(target)
    // What the copy creates, not only the operand it names (issue 34): `cp -r X/Y dir` creates
    // `dir/Y` when dir is a folder; `cp -r X/. dir` creates whatever X holds.
    // With -T the destination becomes the copy: a folder's contents land in it directly.
    const recursive =
      name.value === 'mv' ||
      ['-r', '-R', '--recursive', '-a', '--archive'].some((flag) => read.flags.includes(flag))
    const noTargetDir =
      recursive && (read.flags.includes('-T') || read.flags.includes('--no-target-directory'))
    for (const [word, source] of sourceTargets) {
      const created = noTargetDir ? treeInto(target.path) : createdInto(word, source, target.path)
      for (const name of created) {
        writes.push(name)
      }
    }
  }
  const recursive =
    name.value === 'mv' ||
    ['-r', '-R', '--recursive', '-a', '--archive'].some((flag) => read.flags.includes(flag))
  // A move takes its sources' contents along: they count as read too.
  if (name.value === 'mv') for (const [, source] of sourceTargets) reads.push(source)
  return { reads, writes, recursive }
}

/** Commands whose operands name files they change; `skip` operands come first (chmod's mode). */
const WRITING_COMMANDS: Readonly<Record<string, { skip: number; values: readonly string[] }>> = {
  rm: { skip: 0, values: [] },
  unlink: { skip: 0, values: [] },
  shred: { skip: 0, values: ['-n', '-s', '--iterations', '--size'] },
  truncate: { skip: 0, values: ['-s', '--size', '-r', '--reference'] },
  tee: { skip: 0, values: ['--output-error'] },
  chmod: { skip: 1, values: ['--reference'] },
  chown: { skip: 1, values: ['--reference', '--from'] },
  chgrp: { skip: 1, values: ['--reference'] },
  ln: { skip: 0, values: ['-t', '--target-directory', '-S', '--suffix'] },
  mkdir: { skip: 0, values: ['-m', '--mode'] },
  touch: { skip: 0, values: ['-d', '--date', '-t', '-r', '--reference'] },
  cp: { skip: 0, values: ['-t', '--target-directory', '-S', '--suffix'] },
  mv: { skip: 0, values: ['-t', '--target-directory', '-S', '--suffix'] },
  rmdir: { skip: 0, values: [] },
  install: {
    skip: 0,
    values: ['-m', '--mode', '-o', '--owner', '-g', '--group', '-t', '--target-directory'],
  },
}

const COPYING = new Set(['cp', 'mv', 'ln', 'install'])

/** What an archive tool or rsync creates: the folder it writes and the names it may create there. */
type Extractor = (
  args: readonly ShellWord[],
  cwd: string | undefined,
  home: string,
) => { writes: Target[]; reads?: Target[] }

/** The folder a word names (or the cwd), with every protected name a tree of unknown names may bring. */
function extractedInto(dir: ShellWord | undefined, cwd: string | undefined, home: string): Target[] {
  const target = dir
    ? targetOf(dir, cwd, home)
    : cwd === undefined
      ? undefined
      : ({ kind: 'path', path: cwd } as Target)
  if (target === undefined || target.kind !== 'path')
    return [
      target ?? { kind: 'unknown', text: '(the folder it extracts into)' },
      { kind: 'unknown', text: '(the names it extracts)' },
    ]
  return [target, ...treeInto(target.path)]
}

/**
 * rsync, tar and unzip by what they create (issue 34): `rsync -a X dir` creates `dir/X`, `X/`
 * the tree; `tar -x` and `unzip` extract names the line does not show into `-C`/`-d` or the cwd.
 * tar without `-x` writes the archive `-f` names (and reads the rest).
 */
const EXTRACTORS: Readonly<Record<string, Extractor>> = {
  rsync: (args, cwd, home) => {
    const operands = args.filter((word) => !word.value.startsWith('-'))
    const destination = operands[operands.length - 1]
    if (operands.length < 2 || !destination)
      return { writes: [{ kind: 'unknown', text: '(what rsync writes)' }] }
    const reads = operands.slice(0, -1).map((word) => targetOf(word, cwd, home))
    const into = targetOf(destination, cwd, home)
    // `host:path` is another machine; options with values (`-e ssh`) are not told apart: unknown.
    if (into.kind !== 'path' || destination.value.includes(':'))
      return { writes: [{ kind: 'unknown', text: '(what rsync writes)' }], reads }
    const created: Target[] = [into]
    for (const source of operands.slice(0, -1)) {
      const contents = source.value.endsWith('/') || namesContents(source)
      created.push(
        ...(contents ? treeInto(into.path) : createdInto(source, targetOf(source, cwd, home), into.path)),
      )
    }
    return { writes: created, reads }
  },
  tar: (args, cwd, home) => {
    const first = args[0]?.value ?? ''
    const cluster = /^-?[A-Za-z]+$/.test(first) && !first.startsWith('--') ? first.replace(/^-/, '') : ''
    const extracting =
      cluster.includes('x') || args.some((word) => /^--(extract|get)$|^-[A-Za-z]*x/.test(word.value))
    const at = args.findIndex((word) => word.value === '-C' || word.value === '--directory')
    const inline = args.find((word) => word.value.startsWith('--directory='))
    const dir = at >= 0 ? args[at + 1] : inline ? { ...inline, value: inline.value.slice(12) } : undefined
    if (extracting) return { writes: extractedInto(dir, cwd, home) }
    // Creating: the archive is the file `-f`/`--file` names (or the value after a cluster holding f).
    const fileAt = args.findIndex((word) => word.value === '-f' || word.value === '--file')
    const archive = fileAt >= 0 ? args[fileAt + 1] : cluster.includes('f') ? args[1] : undefined
    // What it archives: every other operand (and the folders below them, for deny rules).
    const sources = args.slice(1).filter((word) => !word.value.startsWith('-') && word !== archive)
    return {
      writes: archive
        ? [targetOf(archive, cwd, home)]
        : [{ kind: 'unknown', text: '(the archive tar writes)' }],
      reads: sources.map((word) => targetOf(word, cwd, home)),
    }
  },
  zip: (args, cwd, home) => {
    const operands = args.filter((word) => !word.value.startsWith('-'))
    const [archive, ...sources] = operands
    return {
      writes: archive
        ? [targetOf(archive, cwd, home)]
        : [{ kind: 'unknown', text: '(the archive zip writes)' }],
      reads: sources.map((word) => targetOf(word, cwd, home)),
    }
  },
  unzip: (args, cwd, home) => {
    const at = args.findIndex((word) => word.value === '-d')
    if (args.some((word) => /^-[A-Za-z]*[lvtZ]/.test(word.value) && word.value !== '-d'))
      return { writes: [] }
    return { writes: extractedInto(at >= 0 ? args[at + 1] : undefined, cwd, home) }
  },
}

/** Download tools' options that name files they write; `unknown` ones write a file named by the server. */
const DOWNLOADERS: Readonly<
  Record<
    string,
    {
      files: readonly string[]
      unknown: readonly string[]
      values: readonly string[]
      byDefault: boolean
      /** Built once below, so the option reader caches its set. */
      options?: { valueFlags: readonly string[] }
    }
  >
> = {
  curl: {
    files: [
      '-o',
      '--output',
      '-D',
      '--dump-header',
      '-c',
      '--cookie-jar',
      '--trace',
      '--trace-ascii',
      '--stderr',
      '--etag-save',
      '--hsts',
      '--alt-svc',
      '--libcurl',
      '--output-dir',
    ],
    unknown: ['-O', '--remote-name', '--remote-name-all', '-J', '--remote-header-name'],
    values: [
      '-d',
      '--data',
      '--data-binary',
      '--data-raw',
      '-H',
      '--header',
      '-u',
      '--user',
      '-X',
      '--request',
      '-A',
      '--user-agent',
      '-e',
      '--referer',
      '-F',
      '--form',
      '-b',
      '--cookie',
      '-T',
      '--upload-file',
      '-m',
      '--max-time',
      '-w',
      '--write-out',
      '-x',
      '--proxy',
      '-K',
      '--config',
      '-r',
      '--range',
    ],
    byDefault: false,
  },
  wget: {
    files: [
      '-O',
      '--output-document',
      '-o',
      '--output-file',
      '-a',
      '--append-output',
      '-P',
      '--directory-prefix',
    ],
    unknown: [],
    values: [
      '-t',
      '--tries',
      '-T',
      '--timeout',
      '-U',
      '--user-agent',
      '--header',
      '-e',
      '--execute',
      '-i',
      '--input-file',
      '-w',
      '--wait',
    ],
    byDefault: true,
  },
}
for (const spec of Object.values(DOWNLOADERS)) spec.options = { valueFlags: [...spec.files, ...spec.values] }

/** The files curl/wget write through their options, whatever rule allowed them. */
function downloadTargets(command: EffectiveCommand, cwd: string | undefined, home: string): Target[] {
  const name = command.words[0]
  const spec = name?.literal ? DOWNLOADERS[name.value] : undefined
  if (!spec) return []
  const read = readArgs(command.words.slice(1), spec.options ?? {})
  const writes: Target[] = []
  for (const option of spec.files) {
    for (const word of read.values.get(option) ?? [])
      if (word.value !== '-') writes.push(targetOf(word, cwd, home))
  }
  const named = read.values.has('-O') || read.values.has('--output-document')
  if (read.flags.some((flag) => spec.unknown.includes(flag)) || (spec.byDefault && !named) || read.refusal)
    writes.push({ kind: 'unknown', text: `(a file ${name?.value} names itself)` })
  return writes
}

/** Every operand of a writing command, all counted as written (and, for copies, also as read). */
function otherTargets(command: EffectiveCommand, cwd: string | undefined, home: string) {
  const name = command.words[0]
  const spec = name?.literal ? WRITING_COMMANDS[name.value] : undefined
  const extractor =
    name?.literal && Object.hasOwn(EXTRACTORS, name.value) ? EXTRACTORS[name.value] : undefined
  if (extractor) {
    const { writes, reads = [] } = extractor(command.words.slice(1), cwd, home)
    // Archiving or syncing a folder reads every file below it.
    return { reads, writes, through: [] as Target[], recursive: reads.length > 0 }
  }
  if (!spec || !name) {
    const downloads = downloadTargets(command, cwd, home)
    return { reads: [], writes: downloads, through: downloads }
  }
  const read = readArgs(command.words.slice(1), { valueFlags: spec.values })
  const targets: Target[] = read.positionals.slice(spec.skip).map((word) => targetOf(word, cwd, home))
  for (const flag of ['-t', '--target-directory']) {
    for (const word of read.values.get(flag) ?? []) targets.push(targetOf(word, cwd, home))
  }
  if (command.unknownArgs || read.refusal) targets.push({ kind: 'unknown', text: '(arguments not shown)' })
  const writes = [...targets]
  // A copy or move creates names inside its destination folder (`cp -r vendor/. .` → the tree).
  if ((name.value === 'cp' || name.value === 'mv') && read.positionals.length >= 2) {
    const dir = read.values.get('-t')?.[0] ?? read.values.get('--target-directory')?.[0]
    const destination = dir ?? (read.positionals[read.positionals.length - 1] as ShellWord)
    const into = targetOf(destination, cwd, home)
    const sources = dir ? read.positionals : read.positionals.slice(0, -1)
    for (const source of sources)
      writes.push(
        ...(into.kind === 'path' ? createdInto(source, targetOf(source, cwd, home), into.path) : []),
      )
    if (into.kind !== 'path') writes.push({ kind: 'unknown', text: '(the names the copy creates)' })
  }
  const recursive =
    COPYING.has(name.value) &&
    read.flags.some((flag) => /^-[A-Za-z]*[rRa]|^--(recursive|archive)$/.test(flag))
  return { reads: COPYING.has(name.value) ? targets : [], writes, through: [] as Target[], recursive }
}

/** Literal operands read as paths, for a command whose use of them is unknown. */
function mentionsOf(command: EffectiveCommand, cwd: string | undefined, home: string): Target[] {
  const mentions: Target[] = []
  for (const word of command.words.slice(1)) {
    if (!word.literal) continue
    const candidates = [word.value]
    const eq = word.value.indexOf('=')
    if (eq >= 0) candidates.push(word.value.slice(eq + 1))
    for (const candidate of [...candidates])
      if (candidate.startsWith('@')) candidates.push(candidate.slice(1))
    for (const candidate of candidates) {
      if (candidate === '' || candidate.startsWith('-')) continue
      const target = targetOf({ ...word, value: candidate, tilde: candidate.startsWith('~') }, cwd, home)
      if (target.kind === 'path') mentions.push(target)
    }
  }
  return mentions
}
