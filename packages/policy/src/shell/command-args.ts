import type { ShellWord } from './types.js'

/** How one command's options are read. */
export interface OptionSpec {
  /** Options that take a value (`-n 5`, `-n5`, `--lines=5`, `--lines 5`). */
  valueFlags?: readonly string[]
  /** Options (or `--long` prefixes) that disprove read-only, with no way around them. */
  forbidden?: readonly string[]
}

/** The result of reading a command's arguments. */
export interface ReadArgs {
  /** Every option seen, normalized: `-x` for each short letter, `--long` without its value. */
  flags: string[]
  /** Values of value-taking options, by option. */
  values: Map<string, ShellWord[]>
  positionals: ShellWord[]
  /** The first forbidden option met, or a reason the arguments can't be read (non-literal option). */
  refusal?: string
}

/** Reads options GNU-style (clusters, `--`, `=`); stops reading options at `--`. */
export function readArgs(args: readonly ShellWord[], spec: OptionSpec): ReadArgs {
  const valueFlags = valueFlagSet(spec)
  const forbidden = spec.forbidden ?? []
  const result: ReadArgs = { flags: [], values: new Map(), positionals: [] }
  const addValue = (flag: string, value: ShellWord | undefined): void => {
    if (!value) return
    const list = result.values.get(flag) ?? []
    list.push(value)
    result.values.set(flag, list)
  }
  const refuse = (flag: string): boolean => {
    if (forbidden.some((bad) => flag === bad || (bad.startsWith('--') && flag.startsWith(`${bad}=`)))) {
      result.refusal ??= `${flag} is not read-only`
      return true
    }
    return false
  }
  let index = 0
  let optionsDone = false
  while (index < args.length) {
    const word = args[index++] as ShellWord
    const text = word.value
    if (optionsDone || !text.startsWith('-') || text === '-') {
      if (!word.literal && !optionsDone && /^[$`"']/.test(text)) {
        // `$OPT` could expand to any option; only a known-literal argument is safe to classify.
        result.refusal ??= `'${text}' may expand to an option`
      }
      result.positionals.push(word)
      continue
    }
    if (!word.literal && !word.glob) result.refusal ??= `'${text}' is not a plain option`
    if (text === '--') {
      optionsDone = true
      continue
    }
    if (text.startsWith('--')) {
      const eq = text.indexOf('=')
      const flag = eq < 0 ? text : text.slice(0, eq)
      refuse(text) || refuse(flag)
      result.flags.push(flag)
      if (valueFlags.has(flag)) {
        addValue(flag, eq < 0 ? args[index++] : { ...word, value: text.slice(eq + 1) })
      }
      continue
    }
    for (let letter = 1; letter < text.length; letter++) {
      const flag = `-${text[letter]}`
      refuse(flag)
      result.flags.push(flag)
      if (valueFlags.has(flag)) {
        const rest = text.slice(letter + 1)
        addValue(flag, rest !== '' ? { ...word, value: rest } : args[index++])
        break
      }
    }
  }
  return result
}

const VALUE_FLAG_SETS = new WeakMap<readonly string[], ReadonlySet<string>>()
const NONE: ReadonlySet<string> = new Set()

/** The spec's value flags as a set, built once per list (the lists are module constants). */
function valueFlagSet(spec: OptionSpec): ReadonlySet<string> {
  const list = spec.valueFlags
  if (!list) return NONE
  let set = VALUE_FLAG_SETS.get(list)
  if (!set) {
    set = new Set(list)
    VALUE_FLAG_SETS.set(list, set)
  }
  return set
}
