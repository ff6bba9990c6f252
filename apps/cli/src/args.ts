import { type ParseArgsConfig, parseArgs } from 'node:util'
import { UsageError, unknownWordError } from './cli-error.js'

type Options = NonNullable<ParseArgsConfig['options']>

/** Parsed flags and positionals of one subcommand. */
export interface ParsedArgs<O extends Options> {
  values: {
    [K in keyof O]?: O[K]['type'] extends 'boolean'
      ? boolean
      : O[K]['multiple'] extends true
        ? string[]
        : string
  }
  positionals: string[]
}

/** Parses a subcommand's arguments strictly; an unknown flag becomes a usage error with a suggestion. */
export function parseCommandArgs<O extends Options>(argv: readonly string[], options: O): ParsedArgs<O> {
  try {
    const parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true })
    return parsed as unknown as ParsedArgs<O>
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const unknown = /Unknown option '(-{1,2}[^']+)'/.exec(message)
    if (unknown?.[1]) {
      const flags = Object.keys(options).map((name) => `--${name}`)
      throw unknownWordError('option', unknown[1], flags)
    }
    throw new UsageError(message)
  }
}

/**
 * Lets a string flag be given without a value (`z-engine --resume`, as Claude Code allows): when
 * the flag is last or followed by another flag, it becomes `--flag=` (an empty value) so strict
 * parsing accepts it and the command can tell "no value" from "not given".
 */
export function allowBareFlag(argv: readonly string[], flag: string): string[] {
  const end = argv.indexOf('--')
  return argv.map((arg, index) => {
    if (arg !== flag || (end !== -1 && index > end)) return arg
    const next = argv[index + 1]
    return next === undefined || next.startsWith('-') ? `${flag}=` : arg
  })
}

/** A flag's value from a fixed list (the fallback when absent); an unknown one is a usage error naming the valid ones. */
export function oneOf<T extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback
  if ((allowed as readonly string[]).includes(value)) return value as T
  throw unknownWordError(`${flag} value`, value, allowed)
}
