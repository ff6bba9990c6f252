import { simpleFileCommand } from './file-command.js'
import { followsLinks } from './follows-links.js'
import { options, parseOptions } from './options.js'
import { readOnlyEntry } from './read-only-table.js'
import { ruleTextOf } from './rule-text.js'
import type { Target } from './target.js'
import type { ShellWord } from './types.js'
import { type EffectiveCommand, unwrapLine } from './unwrap.js'
import { mentionsOf, redirectTargets, resolveWord, targetOf } from './word-targets.js'
import { writeOptionTargets } from './write-options.js'
import { otherTargets } from './writing-commands.js'

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

/** Assignments that cannot change what a command runs. */
export const SAFE_ASSIGNMENT = /^(LANG|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|COLUMNS|LINES|TERM)=/
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
