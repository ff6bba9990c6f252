import type { ShellWord } from './types.js'

/**
 * What an option's value is. The proof accepts a value only when it has the declared shape, and
 * records the files a value names: `read` and `list` values are read paths checked like a Read,
 * `write` values are written files checked like an Edit (write-through options).
 */
export type ValueKind =
  /** Any literal string that names no file (a format, a separator, a regular expression). */
  | 'text'
  /** A number, with an optional sign and unit suffix (`-n 5`, `-S 10M`, `--lines=-3`). */
  | 'num'
  /** A file or folder the command reads. */
  | 'read'
  /** A file listing more files to read (`--files0-from`): reads it and files the line does not name. */
  | 'list'
  /** A file the command writes. */
  | 'write'
  /** A shell variable name without a subscript (`printf -v`), since bash evaluates `a[$(cmd)]`. */
  | 'var'
  /** One of fixed words. */
  | { oneOf: readonly string[] }

/** How many values an option takes. */
export type Arity = 'flag' | 'required' | 'optional'

/** One option with its aliases (`-n`, `--lines`). */
export interface OptionShape {
  names: readonly string[]
  arity: Arity
  kind?: ValueKind
}

/** The options a command may take; anything else makes a call unproven. */
export interface OptionTable {
  shapes: readonly OptionShape[]
  /** Long options the tool has that are not allowed, so abbreviations ambiguous with them refuse. */
  refused: readonly string[]
  /** `-5` means `-n 5` (head, tail). */
  numericShort: boolean
  /** Options may follow operands (GNU argument permutation). */
  permute: boolean
  /** `-abc` clusters short options; false for tools with single-dash long options (find, xxd). */
  clusters: boolean
  /** Long options may be abbreviated to a unique prefix (GNU getopt_long, git parse-options). */
  abbreviations: boolean
  byName: ReadonlyMap<string, OptionShape>
  longNames: readonly string[]
}

/** Settings of `options()` beyond the option list. */
export interface OptionSettings {
  refused?: string
  numericShort?: boolean
  permute?: boolean
  clusters?: boolean
  abbreviations?: boolean
}

const KINDS: Readonly<Record<string, ValueKind>> = {
  text: 'text',
  num: 'num',
  read: 'read',
  list: 'list',
  write: 'write',
  var: 'var',
}

/**
 * Builds an option table from a compact spec: space-separated options, aliases joined by `/`, a
 * required value as `:kind` and an optional one (`--color[=WHEN]`) as `?kind`; kinds are text, num,
 * read, list, write, var or `a|b|c` (one of). Example: `-n/--lines:num -q/--quiet --color?auto|never`.
 */
export function options(spec: string, settings: OptionSettings = {}): OptionTable {
  return new LazyOptionTable(spec, settings)
}

/**
 * An option table parsed from its spec on first use: the read-only tables hold some 150 of them,
 * and building them all when the policy loads cost every start ≈10 ms before its first model
 * request, which decides no command (issue 17). Reads as the table built at once would.
 */
class LazyOptionTable implements OptionTable {
  #spec: string
  #settings: OptionSettings
  #built: OptionTable | undefined

  constructor(spec: string, settings: OptionSettings) {
    this.#spec = spec
    this.#settings = settings
  }

  #table(): OptionTable {
    this.#built ??= buildOptions(this.#spec, this.#settings)
    return this.#built
  }

  get shapes(): readonly OptionShape[] {
    return this.#table().shapes
  }
  get refused(): readonly string[] {
    return this.#table().refused
  }
  get numericShort(): boolean {
    return this.#table().numericShort
  }
  get permute(): boolean {
    return this.#table().permute
  }
  get clusters(): boolean {
    return this.#table().clusters
  }
  get abbreviations(): boolean {
    return this.#table().abbreviations
  }
  get byName(): ReadonlyMap<string, OptionShape> {
    return this.#table().byName
  }
  get longNames(): readonly string[] {
    return this.#table().longNames
  }
}

function buildOptions(spec: string, settings: OptionSettings): OptionTable {
  const shapes: OptionShape[] = []
  const byName = new Map<string, OptionShape>()
  for (const token of spec.split(/\s+/).filter(Boolean)) {
    const match = /^([^:?]+)(?:([:?])(.+))?$/.exec(token)
    if (!match) throw new Error(`bad option spec ${token}`)
    const [, namesText = '', mark, kindText] = match
    const names = namesText.split('/')
    let kind: ValueKind | undefined
    if (kindText !== undefined) {
      kind = KINDS[kindText] ?? (kindText.includes('|') ? { oneOf: kindText.split('|') } : undefined)
      if (kind === undefined) throw new Error(`bad value kind in ${token}`)
    }
    const shape: OptionShape =
      kind === undefined
        ? { names, arity: 'flag' }
        : { names, arity: mark === '?' ? 'optional' : 'required', kind }
    for (const name of names) {
      if (!/^--?[^-]/.test(name) || byName.has(name)) throw new Error(`bad or repeated option ${name}`)
      byName.set(name, shape)
    }
    shapes.push(shape)
  }
  const refused = (settings.refused ?? '').split(/\s+/).filter(Boolean)
  return {
    shapes,
    refused,
    numericShort: settings.numericShort ?? false,
    permute: settings.permute ?? true,
    clusters: settings.clusters ?? true,
    abbreviations: settings.abbreviations ?? true,
    byName,
    longNames: [...byName.keys()].filter((name) => name.startsWith('--')),
  }
}

/** What reading a command's arguments against its table found. */
export interface ParsedOptions {
  /** Every option given, by each of its aliases (so `seen.has('-r')` also answers `--recursive`). */
  seen: Set<string>
  /** Values of options, by the option's first name. */
  values: Map<string, ShellWord[]>
  operands: ShellWord[]
  /** Index in `operands` of the first operand after `--`, when `--` was given. */
  dashDashAt?: number
  reads: ShellWord[]
  writes: ShellWord[]
  /** A value names files the line does not show (`--files0-from`). */
  unknownReads: boolean
  /** The first reason the call is not proven: an unknown option, a bad value, an expansion. */
  refusal?: string
}

/**
 * Whether a word could still turn into something else when bash runs it: an expansion, an
 * arithmetic context, or a glob. Literal words are safe by construction.
 */
export function expands(word: ShellWord): boolean {
  return !word.literal
}

/** A glob that could expand to a name starting with `-`, i.e. to an option. */
function couldBeOption(word: ShellWord): boolean {
  return !word.literal && !/^[^-*?[$`"'\\{~]/.test(word.value)
}

/** Resolves `--name` (exact or unambiguous prefix) to its shape; a string is the refusal. */
function resolveLong(name: string, table: OptionTable): OptionShape | string {
  const exact = table.byName.get(name)
  if (exact) return exact
  if (table.refused.includes(name)) return `${name} is not read-only`
  if (!table.abbreviations) return `${name} is not an option the proof knows`
  const allowed = table.longNames.filter((long) => long.startsWith(name))
  const refused = table.refused.filter((long) => long.startsWith(name))
  const shapes = new Set(allowed.map((long) => table.byName.get(long)))
  if (refused.length > 0) return `${name} may abbreviate ${refused[0]}, which is not read-only`
  if (shapes.size === 1 && name.length > 2) return [...shapes][0] as OptionShape
  return shapes.size > 1
    ? `${name} is an ambiguous abbreviation (${allowed.join(', ')})`
    : `${name} is not an option the proof knows`
}

function valueProblem(kind: ValueKind, value: ShellWord, option: string): string | undefined {
  if (!value.literal) return `the value of ${option} may expand (${value.value})`
  const text = value.value
  if (kind === 'num') return /^[+-]?\d+[A-Za-z%]{0,3}$/.test(text) ? undefined : `${option} takes a number`
  if (kind === 'var')
    return /^[A-Za-z_][A-Za-z0-9_]*$/.test(text) ? undefined : `${option} takes a plain name`
  if (typeof kind === 'object')
    return kind.oneOf.includes(text) ? undefined : `${option} takes one of ${kind.oneOf.join(', ')}`
  return undefined
}

/** Records one option and its value: its shape's names, the value's check and the files it names. */
function take(result: ParsedOptions, shape: OptionShape, option: string, value: ShellWord | undefined): void {
  for (const name of shape.names) result.seen.add(name)
  if (shape.arity === 'flag') return
  if (value === undefined) {
    if (shape.arity === 'required') result.refusal ??= `${option} lacks its value`
    return
  }
  const kind = shape.kind ?? 'text'
  const problem = valueProblem(kind, value, option)
  if (problem) result.refusal ??= problem
  const key = shape.names[0] as string
  const list = result.values.get(key) ?? []
  list.push(value)
  result.values.set(key, list)
  if (kind === 'read') result.reads.push(value)
  else if (kind === 'list') {
    if (value.value !== '-') result.reads.push(value)
    result.unknownReads = true
  } else if (kind === 'write') result.writes.push(value)
}

/** Reads arguments against an option table: allowlisted options with shaped values, then operands. */
export function parseOptions(args: readonly ShellWord[], table: OptionTable): ParsedOptions {
  const result: ParsedOptions = {
    seen: new Set(),
    values: new Map(),
    operands: [],
    reads: [],
    writes: [],
    unknownReads: false,
  }
  const refuse = (reason: string): void => {
    result.refusal ??= reason
  }
  let index = 0
  let optionsDone = false
  while (index < args.length) {
    const word = args[index++] as ShellWord
    const text = word.value
    if (optionsDone) {
      result.operands.push(word)
      continue
    }
    if (!word.literal) {
      // `$OPT` or a glob such as `*` may expand to an option (a file can be named `--output=x`).
      if (couldBeOption(word)) refuse(`'${text}' may expand to an option`)
      result.operands.push(word)
      if (!table.permute) optionsDone = true
      continue
    }
    if (!text.startsWith('-') || text === '-') {
      result.operands.push(word)
      if (!table.permute) optionsDone = true
      continue
    }
    if (text === '--') {
      optionsDone = true
      result.dashDashAt = result.operands.length
      continue
    }
    if (table.numericShort && /^-\d+$/.test(text)) {
      result.seen.add('-n')
      continue
    }
    if (text.startsWith('--') || !table.clusters) {
      const eq = text.indexOf('=')
      const name = eq < 0 ? text : text.slice(0, eq)
      const shape = text.startsWith('--')
        ? resolveLong(name, table)
        : (table.byName.get(name) ?? `${name} is not an option the proof knows`)
      if (typeof shape === 'string') {
        refuse(shape)
        continue
      }
      if (eq >= 0) {
        if (shape.arity === 'flag') refuse(`${name} takes no value`)
        else take(result, shape, name, { ...word, value: text.slice(eq + 1), tilde: false })
      } else take(result, shape, name, shape.arity === 'required' ? args[index++] : undefined)
      continue
    }
    for (let letter = 1; letter < text.length; letter++) {
      const option = `-${text[letter]}`
      const shape = table.byName.get(option)
      if (!shape) {
        refuse(`${option} is not an option the proof knows`)
        break
      }
      if (shape.arity === 'flag') {
        take(result, shape, option, undefined)
        continue
      }
      const rest = text.slice(letter + 1)
      if (rest !== '') take(result, shape, option, { ...word, value: rest, tilde: false })
      else take(result, shape, option, shape.arity === 'required' ? args[index++] : undefined)
      break
    }
  }
  return result
}
