import { closeMatches } from '../../util/close-matches.js'
import { builtinCommandDefinitions } from '../definitions/load.js'
import type { CommandDefinition } from '../definitions/types.js'
import { ENGINE_BUILTIN_COMMANDS, type EngineBuiltinName, isEngineBuiltin } from './engine-builtins.js'

/** An MCP server's prompt, offered as the command `mcp__<server>__<prompt>`. */
export interface McpPromptCommand {
  server: string
  prompt: string
  description: string
  arguments: Array<{ name: string; description?: string; required: boolean }>
}

/** One resolvable command, tagged by who answers it. */
export type CatalogEntry =
  /** Answered by the session core without the model. */
  | { kind: 'engine'; name: EngineBuiltinName; description: string; argumentHint?: string }
  /** A user or project template (`.z-engine/commands`, `.claude/commands`). */
  | {
      kind: 'custom'
      name: string
      description: string
      argumentHint?: string
      definition: CommandDefinition
    }
  /** A template shipped in `@z-engine/prompts` (`/init`, `/review`, `/commit`). */
  | {
      kind: 'prompt'
      name: string
      description: string
      argumentHint?: string
      definition: CommandDefinition
    }
  /** An MCP prompt of a ready server. */
  | { kind: 'mcp'; name: string; description: string; prompt: McpPromptCommand }

/** What `resolveCommand` found: an entry, or a notice for the user with close matches. */
export type CommandResolution =
  | { ok: true; entry: CatalogEntry }
  | { ok: false; notice: string; suggestions: string[] }

/** The command catalog of a session: every name resolvable by `runCommand`, first name wins. */
export interface CommandCatalog {
  /** In resolution order: engine built-ins, custom commands, prompt built-ins, MCP prompts. */
  readonly entries: readonly CatalogEntry[]
  /** Custom commands that could not be used because an engine built-in has their name. */
  readonly warnings: readonly string[]
}

/** What goes into a catalog; custom commands come from `loadCommandDefinitions` (already layered). */
export interface CatalogSources {
  custom: readonly CommandDefinition[]
  /** Defaults to the prompt built-ins shipped in `@z-engine/prompts`. */
  promptBuiltins?: readonly CommandDefinition[]
  mcpPrompts?: readonly McpPromptCommand[]
}

/**
 * Builds the catalog per spec 000 "Commands": engine built-ins, then custom commands (which may
 * shadow a prompt built-in but never an engine built-in), then prompt built-ins, then MCP prompts.
 */
export function buildCommandCatalog(sources: CatalogSources): CommandCatalog {
  const entries: CatalogEntry[] = []
  const warnings: string[] = []
  const taken = new Set<string>()
  for (const command of ENGINE_BUILTIN_COMMANDS) {
    entries.push(
      'argumentHint' in command
        ? {
            kind: 'engine',
            name: command.name,
            description: command.description,
            argumentHint: command.argumentHint,
          }
        : { kind: 'engine', name: command.name, description: command.description },
    )
    taken.add(command.name)
  }
  for (const definition of sources.custom) {
    if (isEngineBuiltin(definition.name)) {
      warnings.push(
        `The custom command /${definition.name} (${definition.source.path}) is ignored: /${definition.name} is an engine built-in. Rename the file.`,
      )
      continue
    }
    if (taken.has(definition.name)) continue
    entries.push(templateEntry('custom', definition))
    taken.add(definition.name)
  }
  for (const definition of sources.promptBuiltins ?? builtinCommandDefinitions()) {
    if (taken.has(definition.name)) continue
    entries.push(templateEntry('prompt', definition))
    taken.add(definition.name)
  }
  for (const prompt of sources.mcpPrompts ?? []) {
    const name = `mcp__${prompt.server}__${prompt.prompt}`
    if (taken.has(name)) continue
    entries.push({ kind: 'mcp', name, description: prompt.description, prompt })
    taken.add(name)
  }
  return { entries, warnings }
}

/** Resolves a command name (with or without its leading `/`); unknown names get close matches. */
export function resolveCommand(catalog: CommandCatalog, name: string): CommandResolution {
  const wanted = name.trim().replace(/^\//, '')
  const entry = catalog.entries.find((candidate) => candidate.name === wanted)
  if (entry !== undefined) return { ok: true, entry }
  const suggestions = closeMatches(
    wanted,
    catalog.entries.map((candidate) => candidate.name),
  )
  const hint =
    suggestions.length > 0
      ? ` Did you mean ${suggestions.map((suggestion) => `/${suggestion}`).join(', ')}?`
      : ''
  return { ok: false, notice: `Unknown command /${wanted}.${hint}`, suggestions }
}

function templateEntry(kind: 'custom' | 'prompt', definition: CommandDefinition): CatalogEntry {
  const base = { kind, name: definition.name, description: definition.description, definition }
  return definition.argumentHint === undefined ? base : { ...base, argumentHint: definition.argumentHint }
}
