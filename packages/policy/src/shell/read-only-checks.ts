import { type OptionTable, options, type ParsedOptions, parseOptions } from './options.js'
import type { ReadOnlyEntry, TableVerdict } from './read-only-entry.js'
import type { ShellWord } from './types.js'

export type { TableVerdict }

/** A verdict that proves nothing. */
export function refused(reason: string, parsed?: ParsedOptions): TableVerdict {
  return {
    refusal: reason,
    reads: parsed ? [...parsed.reads] : [],
    writes: parsed ? [...parsed.writes] : [],
    recursive: false,
    unknownReads: parsed?.unknownReads ?? false,
  }
}

/** What a command's operands are. */
export type Operands =
  /** Files (or folders) it reads. */
  | 'files'
  /** A pattern, then files it reads (unless a pattern option gave the pattern). */
  | 'patternThenFiles'
  /** Text that names no file. */
  | 'text'
  /** No operands at all (they would change state). */
  | 'none'
  /** Files it reads, then one optional output file it writes (uniq, xxd). */
  | 'inThenOut'

/** How a generic entry reads its arguments. */
export interface GenericSpec {
  options: OptionTable
  operands: Operands
  /** Options (any alias) that make reads recursive; `true` when always recursive. */
  recursive?: readonly string[] | true
  /** Options that give the pattern, so every operand is a file (grep -e). */
  patternOptions?: readonly string[]
  /** With no operand it reads the cwd (ls, du, tree). */
  cwdDefault?: boolean
  /** Operands starting with `@` are response files of options (binutils): refused. */
  responseFiles?: boolean
  /** Options whose presence turns every operand into a list of more files (md5sum -c). */
  listOptions?: readonly string[]
}

/** Checks a call against a generic spec: allowlisted options, then operands by kind. */
export function checkGeneric(spec: GenericSpec, args: readonly ShellWord[]): TableVerdict {
  const parsed = parseOptions(args, spec.options)
  if (parsed.refusal) return refused(parsed.refusal, parsed)
  const recursive = spec.recursive === true || (spec.recursive ?? []).some((name) => parsed.seen.has(name))
  const verdict: TableVerdict = {
    reads: [...parsed.reads],
    writes: [...parsed.writes],
    recursive,
    unknownReads: parsed.unknownReads,
  }
  const operands = parsed.operands
  if (spec.responseFiles && operands.some((word) => word.value.startsWith('@')))
    return refused('an @file operand reads options from a file', parsed)
  if ((spec.listOptions ?? []).some((name) => parsed.seen.has(name))) verdict.unknownReads = true
  switch (spec.operands) {
    case 'none':
      if (operands.length > 0) return refused('operands change state', parsed)
      break
    case 'text':
      break
    case 'files':
      verdict.reads.push(...(operands.length === 0 && spec.cwdDefault ? [dot()] : operands))
      break
    case 'patternThenFiles': {
      const given = (spec.patternOptions ?? []).some((name) => parsed.seen.has(name))
      verdict.reads.push(...(given ? operands : operands.slice(1)))
      break
    }
    case 'inThenOut':
      verdict.reads.push(...operands.slice(0, 1))
      verdict.writes.push(...operands.slice(1, 2))
      if (operands.length > 2) return refused('too many operands', parsed)
      break
    default: {
      const unreachable: never = spec.operands
      return unreachable
    }
  }
  return verdict
}

/** A table entry read by the generic checker, its summary naming the allowed options. */
export function entry(
  names: readonly string[],
  allowed: string,
  spec: Omit<GenericSpec, 'options'> & {
    settings?: Parameters<typeof options>[1]
    summary?: string
    anyArgsSafe?: boolean
  },
  match: readonly string[],
  notMatch: readonly string[],
): ReadOnlyEntry {
  const table = options(allowed, spec.settings)
  const generic: GenericSpec = { ...spec, options: table }
  return {
    names,
    summary: spec.summary ?? defaultSummary(spec.operands),
    allowed,
    match,
    notMatch,
    anyArgsSafe: spec.anyArgsSafe ?? false,
    check: (args) => checkGeneric(generic, args),
  }
}

function defaultSummary(operands: Operands): string {
  switch (operands) {
    case 'files':
      return 'only the listed options; operands are files read'
    case 'patternThenFiles':
      return 'only the listed options; a pattern, then files read'
    case 'text':
      return 'only the listed options; operands are text'
    case 'none':
      return 'only the listed options; no operands'
    case 'inThenOut':
      return 'only the listed options; a second operand is a file written'
    default: {
      const unreachable: never = operands
      return unreachable
    }
  }
}

/** The word `.`: the cwd a command reads when given no operand. */
export function dot(): ShellWord {
  return { value: '.', literal: true, glob: false, tilde: false }
}
