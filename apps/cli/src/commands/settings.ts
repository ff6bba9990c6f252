import { EXIT } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { inspectContext, subcommand } from '../inspect/inspect-context.js'
import { printJson, printLines } from '../output.js'

const HELP = `Usage: z-engine settings explain [--json] [--cwd DIR] [KEY…]

Each effective setting for DIR and the layer that set it (defaults, user settings.toml,
.claude/settings*.json with compat.claude, .z-engine/settings.toml, settings.local.toml,
environment), earlier layers it overrode, the categories withheld from an untrusted project, and
every problem found in the files. Give keys (or prefixes, e.g. permissions) to narrow the list.
`

/** `z-engine settings explain`: every effective value and where it came from. */
export async function main(io: CommandIo): Promise<number> {
  const context = await inspectContext(io, HELP)
  if (!context) return EXIT.ok
  subcommand(context.args, ['explain'], 'settings')
  const keys = context.args.slice(1)
  const explain = context.loaded.explain.filter(
    (entry) =>
      keys.length === 0 || keys.some((key) => entry.path === key || entry.path.startsWith(`${key}.`)),
  )
  const loaded = context.loaded
  const code = loaded.notices.some((notice) => notice.severity === 'error') ? EXIT.failed : EXIT.ok
  if (context.json) {
    printJson(io, {
      projectRoot: context.projectRoot,
      trusted: context.trusted,
      files: loaded.files,
      explain,
      withheld: loaded.trustRequired,
      notices: loaded.notices,
    })
    return code
  }
  const lines = explain.map((entry) => {
    const effective = entry.sources.at(-1)
    const from = entry.accumulates
      ? entry.sources.map((source) => source.layer).join(' + ')
      : `${effective?.layer ?? 'defaults'}${effective?.file ? ` (${effective.file})` : ''}`
    const overridden =
      !entry.accumulates && entry.sources.length > 1
        ? `  overrides ${entry.sources
            .slice(0, -1)
            .map((source) => `${source.layer}=${JSON.stringify(source.value)}`)
            .join(', ')}`
        : ''
    return `${entry.path} = ${JSON.stringify(entry.value)}  ← ${from}${overridden}`
  })
  if (loaded.trustRequired.length > 0)
    lines.push(`withheld until the workspace is trusted: ${loaded.trustRequired.join(', ')}`)
  for (const notice of loaded.notices) lines.push(`${notice.severity}: ${notice.message}`)
  printLines(io, lines)
  return code
}
