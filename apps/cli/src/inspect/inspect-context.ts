import { Engine } from '@z-engine/engine'
import type { DefinitionRoots } from '@z-engine/engine/definitions'
import { pluginDefinitionSources } from '@z-engine/engine/plugins'
import { createTrustStore, type LoadedSettings } from '@z-engine/engine/settings'
import { parseCommandArgs } from '../args.js'
import { UsageError } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { projectDir } from '../cwd.js'

/** What every inspection command works from: the project, the engine's paths and its settings. */
export interface InspectContext {
  io: CommandIo
  projectRoot: string
  home: string
  configDir: string
  dataDir: string
  json: boolean
  /** Whether the user trusted this workspace (project settings then apply in full). */
  trusted: boolean
  loaded: LoadedSettings
  roots: DefinitionRoots
  /** Positionals after the subcommand. */
  args: string[]
  /** Flags beyond --json/--cwd/--help that the command declared. */
  flags: Record<string, string | boolean | undefined>
}

type ExtraFlags = Record<string, { type: 'string' | 'boolean' }>

/**
 * Parses `--json`, `--cwd DIR`, `-h` and the command's own flags, and loads the project's settings
 * through the engine (the same layers and trust a session would see). Returns undefined after
 * printing help.
 */
export async function inspectContext(
  io: CommandIo,
  help: string,
  extra: ExtraFlags = {},
): Promise<InspectContext | undefined> {
  const { values, positionals } = parseCommandArgs(io.argv, {
    json: { type: 'boolean' },
    cwd: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
    ...extra,
  })
  if (values.help) {
    io.stdout.write(help)
    return undefined
  }
  const projectRoot = await projectDir(io.cwd, values.cwd as string | undefined, io.env.HOME)
  const engine = await Engine.create({ env: io.env })
  const loaded = await engine.settings(projectRoot)
  const flags: Record<string, string | boolean | undefined> = {}
  for (const name of Object.keys(extra))
    flags[name] = (values as Record<string, string | boolean | undefined>)[name]
  return {
    io,
    projectRoot,
    home: engine.paths.home,
    configDir: engine.paths.configDir,
    dataDir: engine.paths.dataDir,
    json: values.json === true,
    trusted: await createTrustStore(engine.paths.configDir).isTrusted(projectRoot),
    loaded,
    roots: {
      projectRoot,
      home: engine.paths.home,
      configDir: engine.paths.configDir,
      compatClaude: loaded.settings.compat.claude,
      plugins: pluginDefinitionSources(loaded.plugins),
    },
    args: positionals,
    flags,
  }
}

/** Checks the subcommand word (`list`, `expand`, …) and returns it. */
export function subcommand<const T extends string>(
  args: string[],
  allowed: readonly T[],
  command: string,
): T {
  const [word] = args
  if (word === undefined)
    throw new UsageError(`Missing subcommand: z-engine ${command} ${allowed.join('|')} (see --help).`)
  if (!(allowed as readonly string[]).includes(word)) {
    throw new UsageError(`Unknown subcommand '${word}' for ${command}; use ${allowed.join(' or ')}.`)
  }
  return word as T
}
