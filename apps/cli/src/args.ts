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
