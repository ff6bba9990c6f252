import { lexShell } from './lex.js'
import type { ParsedLine, ShellCommand, ShellRedirect, ShellWord } from './types.js'

/** A command after its wrappers (env, sudo, timeout, xargs, `sh -c`, …) were peeled off. */
export interface EffectiveCommand {
  /** The command's words, its name first; empty for a bare redirection or assignment. */
  words: ShellWord[]
  assignments: ShellWord[]
  redirects: ShellRedirect[]
  /** Runs as another user (sudo, doas): never proven read-only. */
  elevated: boolean
  /** Receives arguments the line does not show (xargs, find -exec). */
  unknownArgs: boolean
  /** The wrappers peeled off, outermost first (for explanations). */
  wrappers: string[]
}

/** Every effective command of a line, and whether all of it was understood. */
export interface UnwrappedLine {
  commands: EffectiveCommand[]
  complete: boolean
  problems: string[]
}

interface WrapperSpec {
  /** Options taking a value. */
  values: readonly string[]
  /** Positional words consumed before the wrapped command (timeout's duration). */
  skip?: number
  /** Options after which this is not a wrapper at all (ionice -p, command -v). */
  notWrapper?: readonly string[]
}

const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  env: { values: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'] },
  sudo: {
    values: ['-u', '-g', '-C', '-p', '-U', '-h', '-r', '-t', '-D', '-R', '-T'],
    notWrapper: ['-l', '-v', '-k', '-K', '-e'],
  },
  doas: { values: ['-u', '-C'] },
  timeout: { values: ['-s', '--signal', '-k', '--kill-after'], skip: 1 },
  nice: { values: ['-n', '--adjustment'] },
  nohup: { values: [] },
  time: { values: ['-o', '--output', '-f', '--format'] },
  stdbuf: { values: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  ionice: {
    values: ['-c', '--class', '-n', '--classdata'],
    notWrapper: ['-p', '--pid', '-P', '--pgid', '-u', '--uid'],
  },
  command: { values: [], notWrapper: ['-v', '-V'] },
  builtin: { values: [] },
  exec: { values: ['-a'] },
  xargs: {
    values: [
      '-I',
      '-L',
      '-n',
      '-P',
      '-s',
      '-d',
      '-E',
      '-a',
      '--arg-file',
      '--delimiter',
      '--max-args',
      '--max-procs',
      '--max-chars',
      '--max-lines',
      '--replace',
      '--eof',
      '--process-slot-var',
    ],
  },
  watch: { values: ['-n', '--interval', '-d', '--differences'] },
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh'])
const MAX_UNWRAP = 32

/** Lexes a line and peels every wrapper, recursing into `sh -c '<literal>'`. Never throws. */
export function unwrapLine(line: string, depth = 0): UnwrappedLine {
  return unwrapParsed(lexShell(line, depth), depth)
}

/** Peels wrappers off every command of an already lexed line. */
export function unwrapParsed(parsed: ParsedLine, depth = 0): UnwrappedLine {
  const out: UnwrappedLine = { commands: [], complete: parsed.complete, problems: [...parsed.problems] }
  const problem = (text: string): void => {
    out.complete = false
    if (!out.problems.includes(text)) out.problems.push(text)
  }
  for (const command of parsed.commands) peel(command, depth, out, problem)
  return out
}

function baseName(word: ShellWord | undefined): string | undefined {
  if (!word?.literal) return undefined
  const slash = word.value.lastIndexOf('/')
  return slash < 0 ? word.value : word.value.slice(slash + 1)
}

function peel(
  command: ShellCommand,
  depth: number,
  out: UnwrappedLine,
  problem: (text: string) => void,
): void {
  let words = command.words
  const assignments = [...command.assignments]
  const redirects = [...command.redirects]
  const wrappers: string[] = []
  let elevated = false
  let unknownArgs = false
  for (let round = 0; round < MAX_UNWRAP; round++) {
    const name = baseName(words[0])
    if (name === undefined) break
    if (SHELLS.has(name) || name === 'eval' || name === 'trap') {
      // `eval`, `trap '<action>'` and a shell reading a script from -c or from a here-string or
      // heredoc on standard input: the script's commands are what runs.
      const script =
        name === 'eval'
          ? evalScript(words)
          : name === 'trap'
            ? trapScript(words)
            : fromShell(words, redirects)
      if (script === null) break
      if (name === 'trap') {
        out.commands.push({ words, assignments, redirects, elevated, unknownArgs, wrappers: [...wrappers] })
        wrappers.push('trap')
      }
      if (script === undefined) {
        problem(`${name} with a script that is not a plain string`)
        break
      }
      const inner = unwrapLine(script, depth + 1)
      if (!inner.complete) for (const text of inner.problems) problem(text)
      for (const innerCommand of inner.commands) {
        innerCommand.wrappers.unshift(...wrappers, SHELLS.has(name) ? `${name} -c` : name)
        innerCommand.elevated ||= elevated
        innerCommand.assignments.unshift(...assignments)
        innerCommand.redirects.push(...redirects)
        out.commands.push(innerCommand)
      }
      return
    }
    const spec = WRAPPERS[name]
    if (!spec) break
    const rest = skipOptions(words.slice(1), spec)
    if (rest === undefined) break
    if (name === 'env') {
      while (rest.words[0] && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest.words[0].value)) {
        assignments.push(rest.words.shift() as ShellWord)
      }
      if (
        rest.flags.some(
          (flag) =>
            flag === '-S' || flag.startsWith('--split-string') || flag === '-C' || flag.startsWith('--chdir'),
        )
      ) {
        problem('env -S/-C is not analyzed')
      }
    }
    if (name === 'time' && rest.output) redirects.push({ op: '>', target: rest.output })
    if (name === 'sudo' || name === 'doas') elevated = true
    if (rest.words.length === 0) {
      // `env` alone prints the environment; `xargs` alone runs echo; other wrappers alone do little.
      if (name === 'xargs') {
        words = [{ value: 'echo', literal: true, glob: false, tilde: false }]
        unknownArgs = true
        wrappers.push(name)
      }
      break
    }
    if (name === 'xargs') unknownArgs = true
    wrappers.push(name)
    words = rest.words
  }
  out.commands.push({ words, assignments, redirects, elevated, unknownArgs, wrappers })
  // find -exec/-execdir/-ok/-okdir run another command on every match: collect it too.
  if (baseName(words[0]) === 'find') {
    for (let index = 1; index < words.length; index++) {
      const value = words[index]?.value
      if (value !== '-exec' && value !== '-execdir' && value !== '-ok' && value !== '-okdir') continue
      const inner: ShellWord[] = []
      index++
      while (index < words.length && words[index]?.value !== ';' && words[index]?.value !== '+') {
        inner.push(words[index] as ShellWord)
        index++
      }
      if (inner.length > 0) {
        const nested: UnwrappedLine = { commands: [], complete: true, problems: [] }
        peel({ words: inner, assignments: [], redirects: [] }, depth + 1, nested, problem)
        for (const found of nested.commands) {
          found.unknownArgs = true
          found.wrappers.unshift(...wrappers, `find ${value}`)
          found.elevated ||= elevated
          out.commands.push(found)
        }
      }
    }
  }
}

/** Skips a wrapper's options; undefined when the options say this is not a wrapper call. */
function skipOptions(
  words: ShellWord[],
  spec: WrapperSpec,
): { words: ShellWord[]; flags: string[]; output?: ShellWord } | undefined {
  const flags: string[] = []
  let output: ShellWord | undefined
  let index = 0
  while (index < words.length) {
    const word = words[index] as ShellWord
    const text = word.value
    if (text === '--') {
      index++
      break
    }
    if (!text.startsWith('-') || text === '-' || /^-[0-9]+$/.test(text)) {
      // `nice -5 cmd` is an adjustment, not a command.
      if (/^-[0-9]+$/.test(text)) {
        index++
        continue
      }
      break
    }
    const eq = text.indexOf('=')
    const flag = text.startsWith('--') ? (eq < 0 ? text : text.slice(0, eq)) : text.slice(0, 2)
    if (spec.notWrapper?.includes(flag)) return undefined
    flags.push(flag)
    index++
    const takesValue = spec.values.includes(flag) && (text.startsWith('--') ? eq < 0 : text.length === 2)
    if (takesValue) {
      if ((flag === '-o' || flag === '--output') && words[index]) output = words[index]
      index++
    } else if ((flag === '-o' || flag === '--output') && spec.values.includes(flag)) {
      output = { ...word, value: text.startsWith('--') ? text.slice(eq + 1) : text.slice(2) }
    }
  }
  const rest = words.slice(index + (spec.skip ?? 0))
  return output ? { words: rest, flags, output } : { words: rest, flags }
}

/**
 * The script of `sh -c '<script>'`: the string, `undefined` when it is not a literal, `null` when
 * this is not a `-c` call (a script file, or an interactive shell).
 */
function shellScript(words: ShellWord[]): string | undefined | null {
  for (let index = 1; index < words.length; index++) {
    const word = words[index] as ShellWord
    if (!word.value.startsWith('-') || word.value.startsWith('--')) {
      if (word.value.startsWith('--')) continue
      return null
    }
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(word.value)) {
      const script = words[index + 1]
      if (!script) return null
      return script.literal ? script.value : undefined
    }
    if (word.value === '-o' || word.value === '-O') index++
  }
  return null
}

/** The string `eval` runs: its literal words joined; undefined when any is computed. */
function evalScript(words: ShellWord[]): string | undefined | null {
  const rest = words.slice(1)
  if (rest.length === 0) return null
  return rest.every((word) => word.literal) ? rest.map((word) => word.value).join(' ') : undefined
}

/** The action of `trap '<action>' SIGNAL…`; null for `trap -l`, `trap -p` or a bare `trap`. */
function trapScript(words: ShellWord[]): string | undefined | null {
  const action = words[1]
  if (!action || action.value.startsWith('-') || words.length < 3) return null
  return action.literal ? action.value : undefined
}

/** A shell's script from a here-string or heredoc when it has no script file operand. */
function stdinScript(words: ShellWord[], redirects: ShellRedirect[]): string | undefined | null {
  if (words.slice(1).some((word) => !word.value.startsWith('-'))) return null
  for (const redirect of redirects) {
    if (redirect.fd !== undefined && redirect.fd !== 0) continue
    if (redirect.op === '<<<') return redirect.target.literal ? redirect.target.value : undefined
    if ((redirect.op === '<<' || redirect.op === '<<-') && redirect.body !== undefined) return redirect.body
  }
  return null
}

/** A shell's `-c` script, else its standard-input script (undefined when computed, null when none). */
function fromShell(words: ShellWord[], redirects: ShellRedirect[]): string | undefined | null {
  const script = shellScript(words)
  return script === null ? stdinScript(words, redirects) : script
}
