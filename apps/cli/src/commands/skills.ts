import { loadSkillDefinitions } from '@z-engine/engine/definitions'
import { EXIT } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { reportDefinitions } from '../inspect/definitions-report.js'
import { inspectContext, subcommand } from '../inspect/inspect-context.js'

const HELP = `Usage: z-engine skills list [--json] [--cwd DIR]

The skills (<folder>/<name>/SKILL.md) a session in DIR would offer, each with every parsed field,
its file and layer; shadowed skills; and the files that were skipped, with why (exit code 1 if any).
`

/** `z-engine skills list`: the skills as the engine loads them. */
export async function main(io: CommandIo): Promise<number> {
  const context = await inspectContext(io, HELP)
  if (!context) return EXIT.ok
  subcommand(context.args, ['list'], 'skills')
  return reportDefinitions(context, 'skills', await loadSkillDefinitions(context.roots))
}
