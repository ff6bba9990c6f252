import { SettingsSchema } from '@z-engine/protocol'
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
  // A key nothing sets still gets an answer: its built-in default, or that no setting has that name.
  for (const key of keys)
    if (!explain.some((entry) => entry.path === key || entry.path.startsWith(`${key}.`)))
      lines.push(...unsetLines(key))
  if (loaded.trustRequired.length > 0)
    lines.push(`withheld until the workspace is trusted: ${loaded.trustRequired.join(', ')}`)
  for (const notice of loaded.notices) lines.push(`${notice.severity}: ${notice.message}`)
  printLines(io, lines)
  return code
}

/**
 * The lines for a key no layer sets: its default, or for a table (`model`) each of its keys with
 * theirs, since a table's own default (`{}`) says nothing; or that no setting has that name.
 */
function unsetLines(key: string): string[] {
  const schema = key.split('.').reduce<SchemaNode | undefined>((node, part) => {
    const next = node?.properties?.[part] ?? node?.additionalProperties
    return typeof next === 'object' && next !== null ? next : undefined
  }, SettingsSchema as SchemaNode)
  if (schema === undefined) return [`${key}: no such setting (see 'z-engine settings explain' for every key)`]
  return describeUnset(key, schema)
}

/** A key (and, for a table, each key inside it) with its default and what it is for. */
function describeUnset(key: string, schema: SchemaNode): string[] {
  const children = Object.entries(schema.properties ?? {})
  if (children.length > 0) return children.flatMap(([name, child]) => describeUnset(`${key}.${name}`, child))
  const fallback = schema.default === undefined ? '' : ` = ${JSON.stringify(schema.default)}`
  const about = schema.description !== undefined ? ` — ${schema.description}` : ''
  return [`${key}${fallback}  ← defaults: not set in any settings file or environment variable${about}`]
}

/** The part of a JSON Schema the key lookup walks. */
interface SchemaNode {
  properties?: Record<string, SchemaNode>
  additionalProperties?: SchemaNode | boolean
  default?: unknown
  description?: string
}
