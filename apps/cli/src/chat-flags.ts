import { allowBareFlag, parseCommandArgs } from './args.js'

/** The chat's options; `--resume` may come without an id (the picker). */
const CHAT_OPTIONS = {
  model: { type: 'string' },
  'permission-mode': { type: 'string' },
  resume: { type: 'string' },
  continue: { type: 'boolean' },
  fork: { type: 'string' },
  'fork-session': { type: 'boolean' },
  cwd: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

/**
 * `z-engine [options]` parsed: read by the early prompt box and by the chat itself, so both agree
 * on what was asked. Usage mistakes throw `UsageError`.
 */
export function parseChatFlags(argv: readonly string[]) {
  return parseCommandArgs(allowBareFlag(argv, '--resume'), CHAT_OPTIONS)
}
