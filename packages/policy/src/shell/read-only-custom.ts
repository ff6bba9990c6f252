import { options, parseOptions } from './options.js'
import { checkGeneric, entry, refused, type TableVerdict } from './read-only-checks.js'
import type { ReadOnlyEntry } from './read-only-entry.js'
import type { ShellWord } from './types.js'

const ARITHMETIC = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge'])
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * `test`, `[` and `[[`. bash evaluates `a[$(cmd)]` subscripts in `-v NAME` and, in `[[`, the
 * operands of -eq/-lt/… as arithmetic, so those must be plain names and integers. `test`/`[`
 * operands must be literal (an expansion could become `-v`); `[[` does not split expansions.
 */
function checkTest(name: string, args: readonly ShellWord[]): TableVerdict {
  const words = name === '[' || name === '[[' ? args.slice(0, -1) : args
  const closer = args[args.length - 1]
  if (name === '[' && closer?.value !== ']') return refused('[ without ]')
  if (name === '[[' && closer?.value !== ']]') return refused('[[ without ]]')
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as ShellWord
    if (!word.literal && name !== '[[') return refused(`'${word.value}' may expand to a test operator`)
    if (!word.literal) {
      const before = words[index - 1]?.value ?? ''
      const after = words[index + 1]?.value ?? ''
      if (ARITHMETIC.has(before) || ARITHMETIC.has(after) || before === '-v' || before === '-R')
        return refused(`'${word.value}' is evaluated as arithmetic`)
      continue
    }
    if (ARITHMETIC.has(word.value)) {
      const left = words[index - 1]
      const right = words[index + 1]
      if (!left || !right || !/^-?\d+$/.test(left.value) || !/^-?\d+$/.test(right.value))
        return refused(`${word.value} evaluates its operands as arithmetic (subscripts run commands)`)
    }
    if ((word.value === '-v' || word.value === '-R') && !NAME.test(words[index + 1]?.value ?? '')) {
      return refused(`${word.value} takes a plain variable name (subscripts run commands)`)
    }
  }
  return { reads: [], writes: [], recursive: false }
}

const CD_OPTIONS = options('-L -P -e -@', { permute: false, abbreviations: false })

/** `cd DIR` reads nothing but moves the cwd: its target counts as a folder read (scope, deny rules). */
function checkCd(args: readonly ShellWord[]): TableVerdict {
  const parsed = parseOptions(args, CD_OPTIONS)
  if (parsed.refusal) return refused(parsed.refusal, parsed)
  const [target, extra] = parsed.operands
  if (extra) return refused('cd takes one folder')
  if (!target)
    return { reads: [{ value: '~', literal: true, glob: false, tilde: true }], writes: [], recursive: false }
  if (!target.literal) return refused(`cd '${target.value}' goes where the line does not show`)
  if (target.value === '-') return { reads: [], writes: [], recursive: false, unknownReads: true }
  return { reads: [target], writes: [], recursive: false }
}

/** ps fields allowed in -o/-O/--format (no `environ`, which prints other processes' secrets). */
const PS_FIELDS = new Set(
  'pid ppid pgid sid tid lwp nlwp uid gid ruid euid suid fuid rgid egid user ruser euser suser fuser group rgroup egroup comm ucomm cmd command args %cpu pcpu %mem pmem cputime time etime etimes start stime lstart start_time bsdstart tty tt tname stat state s nice ni pri priority psr rss rsz vsz sz size wchan flags f class cls policy thcount label'.split(
    ' ',
  ),
)
const PS_UNIX_FLAGS = new Set('AadeFfHjLlMmNTwxyZc'.split(''))
const PS_UNIX_VALUES = new Set('pqugGUstCoO'.split(''))
const PS_BSD_FLAGS = new Set('auxfwrljvTchHmnSZ'.split(''))
const PS_LONG = new Set(['--forest', '--no-headers', '--headers', '--deselect', '--help', '--version'])
const PS_LONG_VALUES = new Set([
  '--sort',
  '--pid',
  '--ppid',
  '--user',
  '--User',
  '--group',
  '--Group',
  '--sid',
  '--tty',
  '--cols',
  '--columns',
  '--width',
  '--lines',
  '--rows',
  '--format',
])

function psFields(value: string): string | undefined {
  for (const field of value.split(/[\s,]+/).filter(Boolean)) {
    const name = field.split(/[=:]/)[0]?.toLowerCase() ?? ''
    if (!PS_FIELDS.has(name)) return `ps field ${name} is not one the proof knows`
  }
  return undefined
}

/** ps: UNIX, BSD and GNU options from allowlists; never BSD `e` (environment) or the environ field. */
function checkPs(args: readonly ShellWord[]): TableVerdict {
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord
    const text = word.value
    if (!word.literal) return refused(`'${text}' may expand to a ps option`)
    if (text.startsWith('--')) {
      const eq = text.indexOf('=')
      const name = eq < 0 ? text : text.slice(0, eq)
      if (PS_LONG.has(name) && eq < 0) continue
      if (!PS_LONG_VALUES.has(name)) return refused(`ps ${name} is not an option the proof knows`)
      const value = eq < 0 ? args[++index] : { ...word, value: text.slice(eq + 1) }
      if (!value?.literal) return refused(`ps ${name} lacks a plain value`)
      const problem = name === '--format' ? psFields(value.value) : undefined
      if (problem) return refused(problem)
      continue
    }
    const unix = text.startsWith('-')
    const letters = unix ? text.slice(1) : text
    for (let at = 0; at < letters.length; at++) {
      const letter = letters[at] as string
      if ((unix ? PS_UNIX_VALUES : new Set(['o', 'O', 'p', 't', 'U'])).has(letter)) {
        const rest = letters.slice(at + 1)
        const value = rest !== '' ? rest : args[++index]?.value
        if (value === undefined) return refused(`ps ${letter} lacks its value`)
        if (rest === '' && !args[index]?.literal) return refused(`ps ${letter} lacks a plain value`)
        const problem = letter === 'o' || letter === 'O' ? psFields(value) : undefined
        if (problem) return refused(problem)
        break
      }
      if (!(unix ? PS_UNIX_FLAGS : PS_BSD_FLAGS).has(letter))
        return refused(
          `ps ${unix ? '-' : ''}${letter} is not an option the proof knows (BSD e prints environments)`,
        )
    }
  }
  return { reads: [], writes: [], recursive: false }
}

const DATE_ALLOWED =
  '-d/--date:text -f/--file:read -I?date|hours|minutes|seconds|ns --iso-8601?date|hours|minutes|seconds|ns -R/--rfc-email --rfc-3339:date|seconds|ns -r/--reference:read -u/--utc/--universal --debug --resolution --help --version'
const DATE = options(DATE_ALLOWED, { refused: '--set' })

function checkDate(args: readonly ShellWord[]): TableVerdict {
  const verdict = checkGeneric({ options: DATE, operands: 'text' }, args)
  if (verdict.refusal) return verdict
  const parsed = parseOptions(args, DATE)
  const setting = parsed.operands.find((word) => !word.value.startsWith('+'))
  return setting ? refused(`date ${setting.value} sets the clock`) : verdict
}

function checkCommand(args: readonly ShellWord[]): TableVerdict {
  const first = args[0]?.value
  if (first !== '-v' && first !== '-V' && first !== '-pv' && first !== '-pV')
    return refused('command runs its operand')
  return { reads: [], writes: [], recursive: false }
}

/** Commands with checks of their own: test, cd, ps, date, command. */
export const CUSTOM_COMMANDS: readonly ReadOnlyEntry[] = [
  {
    names: ['test'],
    summary: 'literal operands; -v takes a plain name; -eq/-lt/… take integers',
    match: ['test -f x', 'test 1 -eq 1', 'test -v HOME'],
    notMatch: ["test -v 'a[$(id)]'", 'test $X', "test 'a[$(id)]' -eq 1"],
    anyArgsSafe: false,
    check: (args) => checkTest('test', args),
  },
  {
    names: ['['],
    summary: 'as test, closed by ]',
    match: ['[ -d src ]', '[ 2 -gt 1 ]'],
    notMatch: ["[ -v 'a[$(id)]' ]", '[ $X ]'],
    check: (args) => checkTest('[', args),
  },
  {
    names: ['[['],
    summary: 'closed by ]]; -v takes a plain name; -eq/-lt/… take integer literals (bash evaluates them)',
    match: ['[[ -f x ]]', '[[ "$a" == b ]]', '[[ 1 -lt 2 ]]'],
    notMatch: ["[[ 'a[$(id > m)]' -eq 1 ]]", '[[ $x -eq 1 ]]', "[[ -v 'a[$(id)]' ]]", '[[ x -eq 1 ]]'],
    check: (args) => checkTest('[[', args),
  },
  {
    names: ['cd'],
    summary:
      'options -L -P -e -@; the folder (default ~, `-` unknown) counts as a read: outside the project it asks, and later commands run there',
    match: ['cd src && ls', 'cd -P src'],
    notMatch: ['cd $DIR', 'cd a b', 'cd --bogus'],
    anyArgsSafe: false,
    check: checkCd,
  },
  {
    names: ['ps'],
    summary:
      'UNIX and BSD option letters from an allowlist (never BSD `e`, which prints environments) and -o fields without environ',
    match: ['ps', 'ps aux', 'ps -ef', 'ps -o pid,args'],
    notMatch: ['ps e', 'ps axeww', 'ps -o pid,environ', 'ps auxe'],
    check: checkPs,
  },
  {
    names: ['date'],
    summary: 'options from the list (never `-s`/`--set`); operands are `+FORMAT` only (others set the clock)',
    allowed: DATE_ALLOWED,
    match: ['date', 'date +%s', 'date -u', "date -d '1 day ago' +%F"],
    notMatch: ['date -s "2020-01-01"', 'date --set=now', 'date --se=now', 'date 010112002020'],
    check: checkDate,
  },
  {
    names: ['command'],
    summary: 'only `command -v`/`-V` (a lookup); other uses run the command',
    match: ['command -v node'],
    notMatch: ['command rm x'],
    check: checkCommand,
  },
  entry(
    ['printf'],
    '-v:var',
    {
      operands: 'text',
      settings: { permute: false, abbreviations: false },
      summary: '`-v` takes a plain variable name (bash evaluates subscripts); the rest is text',
    },
    ["printf '%s\\n' a b", 'printf -v x %s 1'],
    ["printf -v 'a[$(id)]' %s 1", 'printf x > f'],
  ),
]
