import { loadAgentDefinitions } from '@z-engine/engine/definitions'
import { EXIT } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { reportDefinitions } from '../inspect/definitions-report.js'
import { inspectContext, subcommand } from '../inspect/inspect-context.js'

const HELP = `Usage: z-engine agents list [--json] [--cwd DIR]

The agent definitions a session in DIR would load (built-ins, ~/.claude/agents, the user's
z-engine agents, .claude/agents, .z-engine/agents), each with every parsed field, its file and
layer; shadowed definitions; and the files that were skipped, with why (exit code 1 if any).
`

/** `z-engine agents list`: the agent registry as the engine loads it. */
export async function main(io: CommandIo): Promise<number> {
  const context = await inspectContext(io, HELP)
  if (!context) return EXIT.ok
  subcommand(context.args, ['list'], 'agents')
  return reportDefinitions(context, 'agents', await loadAgentDefinitions(context.roots))
}
