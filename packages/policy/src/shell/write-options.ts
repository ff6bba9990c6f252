import type { ShellWord } from './types.js'

/** The files a command's write options name: known words, files in its cwd by default, or unknown. */
export interface WriteOptionTargets {
  files: ShellWord[]
  /** It writes a file the line does not name. */
  unknown: boolean
}

const NONE: WriteOptionTargets = { files: [], unknown: false }

/** find's actions that write the file named by their first value. */
const FIND_WRITERS = new Set(['-fprint', '-fprint0', '-fprintf', '-fls'])
/** find's words that take no value (so the word after one is not its value). */
const FIND_ACTION_FLAGS = new Set([
  '-delete',
  '-print',
  '-print0',
  '-ls',
  '-quit',
  '-prune',
  '-not',
  '-a',
  '-and',
  '-o',
  '-or',
  '-true',
  '-false',
  '-empty',
  '-depth',
  '-xdev',
  '-mount',
  '-follow',
])

function word(value: string, like: ShellWord): ShellWord {
  return { value, literal: like.literal, glob: false, tilde: false }
}

/** find: `-fprint F`, `-fprint0 F`, `-fprintf F FMT`, `-fls F` write F; `-delete` removes below every root. */
function findWrites(args: readonly ShellWord[]): WriteOptionTargets {
  const files: ShellWord[] = []
  let unknown = false
  let index = 0
  while (index < args.length && /^-[HLPDO]/.test(args[index]?.value ?? '')) index++
  const roots: ShellWord[] = []
  while (index < args.length && !/^[-(!),]/.test(args[index]?.value ?? ''))
    roots.push(args[index++] as ShellWord)
  // A root the shell expands may expand to an action (`find . $ACTION`).
  if (roots.some((root) => !root.literal)) unknown = true
  for (; index < args.length; index++) {
    const current = args[index] as ShellWord
    // A word the shell expands may become an action (`-delete`, `-fprint`), unless it is a test's value.
    const previous = args[index - 1]?.value ?? ''
    if (!current.literal && !(/^-[a-z]/.test(previous) && !FIND_ACTION_FLAGS.has(previous))) unknown = true
    if (FIND_WRITERS.has(current.value)) {
      const file = args[index + 1]
      if (file === undefined) unknown = true
      else files.push(file)
    } else if (current.value === '-delete') {
      files.push(...(roots.length > 0 ? roots : [word('.', current)]))
    }
  }
  return { files, unknown }
}

/** gawk's options that write a file, the file each writes when given none, and its short letter. */
const AWK_WRITERS: ReadonlyArray<readonly [long: string, short: string, fallback: string]> = [
  ['--dump-variables', 'd', 'awkvars.out'],
  ['--profile', 'p', 'awkprof.out'],
  ['--pretty-print', 'o', 'awkprof.out'],
]

/** awk/gawk: `--dump-variables[=F]`/`-d[F]`, `--profile[=F]`/`-p[F]`, `--pretty-print[=F]`/`-o[F]` (abbreviations too). */
function awkWrites(args: readonly ShellWord[]): WriteOptionTargets {
  const files: ShellWord[] = []
  let unknown = false
  for (const current of args) {
    const value = current.value
    if (value === '--') break
    if (!current.literal && value.startsWith('-')) {
      unknown = true
      continue
    }
    if (value.startsWith('--')) {
      const eq = value.indexOf('=')
      const name = eq < 0 ? value : value.slice(0, eq)
      if (name.length < 3) continue
      for (const [long, , fallback] of AWK_WRITERS) {
        if (!long.startsWith(name)) continue
        files.push(word(eq < 0 ? fallback : value.slice(eq + 1), current))
      }
    } else if (/^-[A-Za-z]/.test(value)) {
      // Short options cluster; a writer's file is attached (`-dF`), else its default file.
      for (const [, short, fallback] of AWK_WRITERS) {
        const at = value.indexOf(short, 1)
        if (at < 0) continue
        // Letters after a value-taking -F/-v/-f/-e are that option's value, not flags.
        const before = value.slice(1, at)
        if (/[Fvfe]/.test(before)) continue
        const rest = value.slice(at + 1)
        files.push(word(rest === '' ? fallback : rest, current))
      }
    }
  }
  return { files, unknown }
}

/**
 * uniq, xxd: a second file operand is written. When the proof accepts the call its own verdict
 * names it; when the proof refused (an option it does not know), every later operand counts.
 */
function secondOperandWrites(args: readonly ShellWord[], proofRefused: boolean): WriteOptionTargets {
  if (!proofRefused) return NONE
  const operands = args.filter((current) => !current.value.startsWith('-') || current.value === '-')
  const written = operands.slice(1).filter((current) => current.value !== '-')
  return {
    files: written.filter((current) => current.literal || current.glob),
    unknown: written.some((current) => !current.literal && !current.glob),
  }
}

/** git: `--output[=F]` and `--output-directory` (any abbreviation) write files. */
function gitWrites(args: readonly ShellWord[]): WriteOptionTargets {
  const files: ShellWord[] = []
  let unknown = false
  for (let index = 0; index < args.length; index++) {
    const current = args[index] as ShellWord
    const value = current.value
    if (value === '--') break
    if (!value.startsWith('--o')) continue
    const eq = value.indexOf('=')
    const name = eq < 0 ? value : value.slice(0, eq)
    if (!'--output-directory'.startsWith(name)) continue
    const file = eq < 0 ? args[index + 1] : word(value.slice(eq + 1), current)
    if (file === undefined) unknown = true
    else files.push(file)
  }
  return { files, unknown }
}

/** Long options (any unambiguous abbreviation of at least `min` characters) that start a program of the caller's choosing. */
function runsProgram(longs: readonly string[], min: number) {
  return (args: readonly ShellWord[]): WriteOptionTargets => {
    for (const current of args) {
      if (current.value === '--') break
      if (!current.literal && current.value.startsWith('-')) return { files: [], unknown: true }
      const name = current.value.split('=')[0] as string
      if (name.length >= min && longs.some((long) => long.startsWith(name)))
        return { files: [], unknown: true }
    }
    return NONE
  }
}

/**
 * The write-through table (issue 34): options of commands in the read-only table that write files.
 * The proof refuses these options, but an allow rule (`Bash(find:*)`) covers the command; its
 * writes then need edit permission like a redirection's, so a rule cannot exceed the edit scope.
 */
const WRITE_OPTIONS: Readonly<
  Record<string, (args: readonly ShellWord[], proofRefused: boolean) => WriteOptionTargets>
> = {
  find: findWrites,
  awk: awkWrites,
  gawk: awkWrites,
  mawk: awkWrites,
  nawk: awkWrites,
  uniq: secondOperandWrites,
  xxd: secondOperandWrites,
  git: gitWrites,
  // A program the caller names may write anything.
  rg: runsProgram(['--pre'], 4),
  sort: runsProgram(['--compress-program'], 5),
}

/** The files `name`'s write options name in `args` (nothing for a command the table does not list). */
export function writeOptionTargets(
  name: string,
  args: readonly ShellWord[],
  proofRefused: boolean,
): WriteOptionTargets {
  return Object.hasOwn(WRITE_OPTIONS, name) ? (WRITE_OPTIONS[name]?.(args, proofRefused) ?? NONE) : NONE
}

/** The commands with write options in the table, for docs/permissions.md. */
export const WRITE_OPTION_COMMANDS: readonly string[] = Object.keys(WRITE_OPTIONS)
