import type { PermissionMode } from '@z-engine/protocol'
import { allowBareFlag, oneOf, parseCommandArgs } from '../args.js'
import { UsageError, unknownWordError } from '../cli-error.js'

/** `-p`'s output formats: Claude Code's three, and the engine's own event lines under their own name. */
export const PRINT_OUTPUT_FORMATS = ['text', 'json', 'stream-json', 'z-engine-events'] as const
/** One of {@link PRINT_OUTPUT_FORMATS}. */
export type PrintOutputFormat = (typeof PRINT_OUTPUT_FORMATS)[number]

/** Claude Code's `--permission-mode` names (and ours), each mapped to an engine mode or refused. */
const MODES: Readonly<Record<string, PermissionMode | { refused: string }>> = {
  default: 'default',
  // Claude Code 2.1's name for its default (asking) mode.
  manual: 'default',
  acceptEdits: 'acceptEdits',
  plan: 'plan',
  bypassPermissions: 'bypass',
  bypass: 'bypass',
  // Claude Code's dontAsk denies whatever is not pre-approved instead of asking: what a headless
  // run of the engine does in its default mode.
  dontAsk: 'default',
  auto: {
    refused:
      "--permission-mode auto needs Claude Code's permission classifier, which z-engine does not have; use dontAsk (or default) with --allowedTools, or acceptEdits",
  },
}

/**
 * Claude Code's flags that take several values (`--allowedTools Read "Bash(git:*)"`): as in Claude
 * Code, the words after the flag up to the next flag are its values; commas split them too.
 */
const VARIADIC = [
  '--allowedTools',
  '--allowed-tools',
  '--disallowedTools',
  '--disallowed-tools',
  '--add-dir',
  '--mcp-config',
] as const

/** What `-p`'s command line asks for, before any file is read. */
export interface PrintFlags {
  prompt: string[]
  outputFormat: PrintOutputFormat
  inputFormat: 'text' | 'stream-json'
  verbose: boolean
  includePartialMessages: boolean
  model?: string
  /** `--fallback-model`: the model a turn switches to when the main one stays overloaded. */
  fallbackModel?: string
  mode?: PermissionMode
  /** The mode as the user named it (Claude Code's spelling), for the init line. */
  modeName?: string
  allowedTools: string[]
  disallowedTools: string[]
  systemPrompt?: string
  appendSystemPrompt?: string
  maxTurns?: number
  mcpConfigs: string[]
  strictMcpConfig: boolean
  addDirs: string[]
  /** `--settings`: a file or a JSON text in Claude Code's settings format. */
  settings?: string
  session:
    | { kind: 'new' }
    | { kind: 'resume'; id: string; fork: boolean }
    | { kind: 'resumeList' }
    | { kind: 'continue'; fork: boolean }
  sessionId?: string
  cwd?: string
  trust: boolean
  help: boolean
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Parses `z-engine -p …` as Claude Code parses `claude -p …`; a flag we cannot honour is refused by name. */
export function parsePrintFlags(argv: readonly string[]): PrintFlags {
  const { args, lists } = splitVariadic(argv)
  const { values, positionals } = parseCommandArgs(allowBareFlag(allowBareFlag(args, '--resume'), '-r'), {
    'output-format': { type: 'string' },
    'input-format': { type: 'string' },
    verbose: { type: 'boolean' },
    'include-partial-messages': { type: 'boolean' },
    model: { type: 'string' },
    'fallback-model': { type: 'string' },
    'permission-mode': { type: 'string' },
    'dangerously-skip-permissions': { type: 'boolean' },
    'system-prompt': { type: 'string' },
    'append-system-prompt': { type: 'string' },
    'max-turns': { type: 'string' },
    'strict-mcp-config': { type: 'boolean' },
    settings: { type: 'string' },
    continue: { type: 'boolean', short: 'c' },
    resume: { type: 'string', short: 'r' },
    'session-id': { type: 'string' },
    'fork-session': { type: 'boolean' },
    cwd: { type: 'string' },
    trust: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  })
  const fallbackModel = values['fallback-model']
  // Claude Code's own check: a fallback to the same model would only repeat the overloaded request.
  if (fallbackModel !== undefined && fallbackModel === values.model)
    throw new UsageError(
      `Fallback model cannot be the same as the main model (--model ${values.model}). Name a different --fallback-model.`,
    )
  const outputFormat = oneOf('--output-format', values['output-format'], PRINT_OUTPUT_FORMATS, 'text')
  const inputFormat = oneOf('--input-format', values['input-format'], ['text', 'stream-json'], 'text')
  const modeName = values['dangerously-skip-permissions'] ? 'bypassPermissions' : values['permission-mode']
  let mode: PermissionMode | undefined
  if (modeName !== undefined) {
    const mapped = MODES[modeName]
    if (mapped === undefined) throw unknownWordError('--permission-mode value', modeName, Object.keys(MODES))
    if (typeof mapped === 'object') throw new UsageError(`${mapped.refused}.`)
    mode = mapped
  }
  let maxTurns: number | undefined
  if (values['max-turns'] !== undefined) {
    maxTurns = Number(values['max-turns'])
    if (!Number.isInteger(maxTurns) || maxTurns < 1)
      throw new UsageError(`--max-turns takes a whole number of rounds ≥ 1 (got '${values['max-turns']}').`)
  }
  if (values.resume !== undefined && values.continue)
    throw new UsageError('Use only one of --resume and --continue.')
  const fork = values['fork-session'] === true
  if (fork && values.resume === undefined && !values.continue)
    throw new UsageError('--fork-session goes with --resume or --continue: it forks the session they name.')
  const sessionId = values['session-id']
  if (sessionId !== undefined) {
    if (!UUID.test(sessionId)) throw new UsageError(`--session-id must be a UUID (got '${sessionId}').`)
    if ((values.resume !== undefined || values.continue) && !fork)
      throw new UsageError(
        '--session-id names a new session; with --resume or --continue it also needs --fork-session.',
      )
  }
  return {
    prompt: positionals,
    outputFormat,
    inputFormat,
    verbose: values.verbose === true,
    includePartialMessages: values['include-partial-messages'] === true,
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(fallbackModel !== undefined ? { fallbackModel } : {}),
    ...(mode !== undefined ? { mode } : {}),
    ...(modeName !== undefined ? { modeName } : {}),
    allowedTools: [...lists['--allowedTools'], ...lists['--allowed-tools']],
    disallowedTools: [...lists['--disallowedTools'], ...lists['--disallowed-tools']],
    ...(values['system-prompt'] !== undefined ? { systemPrompt: values['system-prompt'] } : {}),
    ...(values['append-system-prompt'] !== undefined
      ? { appendSystemPrompt: values['append-system-prompt'] }
      : {}),
    ...(maxTurns !== undefined ? { maxTurns } : {}),
    mcpConfigs: lists['--mcp-config'],
    strictMcpConfig: values['strict-mcp-config'] === true,
    addDirs: lists['--add-dir'],
    ...(values.settings !== undefined ? { settings: values.settings } : {}),
    session:
      values.resume === ''
        ? { kind: 'resumeList' }
        : values.resume !== undefined
          ? { kind: 'resume', id: values.resume, fork }
          : values.continue
            ? { kind: 'continue', fork }
            : { kind: 'new' },
    ...(sessionId !== undefined ? { sessionId } : {}),
    ...(values.cwd !== undefined ? { cwd: values.cwd } : {}),
    trust: values.trust === true,
    help: values.help === true,
  }
}

/**
 * Takes the variadic flags and their values out of argv (`--flag a b`, `--flag=a,b`), leaving the
 * rest for strict parsing. A variadic flag with no value is a usage error naming it.
 */
function splitVariadic(argv: readonly string[]): {
  args: string[]
  lists: Record<(typeof VARIADIC)[number], string[]>
} {
  const lists = Object.fromEntries(VARIADIC.map((flag) => [flag, [] as string[]])) as Record<
    (typeof VARIADIC)[number],
    string[]
  >
  const args: string[] = []
  const end = argv.indexOf('--')
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string
    if (end !== -1 && index >= end) {
      args.push(arg)
      continue
    }
    const eq = arg.indexOf('=')
    const name = (eq === -1 ? arg : arg.slice(0, eq)) as (typeof VARIADIC)[number]
    if (!VARIADIC.includes(name)) {
      args.push(arg)
      continue
    }
    const values: string[] = eq === -1 ? [] : [arg.slice(eq + 1)]
    if (eq === -1)
      while (index + 1 < argv.length && index + 1 !== end && !(argv[index + 1] as string).startsWith('-'))
        values.push(argv[++index] as string)
    const split = name === '--mcp-config' || name === '--add-dir' ? values : values.flatMap(splitToolList)
    if (split.length === 0) throw new UsageError(`${name} needs a value.`)
    lists[name].push(...split)
  }
  return { args, lists }
}

/** `"Read,Edit Bash(git log:*)"` → each rule; commas inside a rule's parentheses stay. */
function splitToolList(text: string): string[] {
  const rules: string[] = []
  let depth = 0
  let current = ''
  for (const char of text) {
    if (char === '(') depth++
    if (char === ')') depth = Math.max(0, depth - 1)
    if (depth === 0 && (char === ',' || char === ' ')) {
      if (current.trim() !== '') rules.push(current.trim())
      current = ''
      continue
    }
    current += char
  }
  if (current.trim() !== '') rules.push(current.trim())
  return rules
}
