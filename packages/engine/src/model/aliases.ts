/**
 * Claude Code's model aliases (`--model opus`, `query({ options: { model: 'sonnet' } })`), resolved in
 * one place: each names the catalog's current model of its family, so the API gets a real id and the
 * cost is priced. The engine, the CLI and the Claude Agent SDK entry all resolve through here.
 */
/** One alias: the catalog model it names and what Claude Code says of it. */
export interface ModelAlias {
  alias: string
  /** The catalog id (Anthropic) the alias resolves to. */
  model: string
  description: string
}

/**
 * The aliases Claude Code accepts. `default` is Claude Code's recommended model (Sonnet); `opusplan`
 * is Opus while planning and Sonnet otherwise in Claude Code: the engine has no per-mode model, so it
 * runs on Sonnet, the model that does the work it is billed for.
 */
export const MODEL_ALIASES: readonly ModelAlias[] = [
  { alias: 'default', model: 'claude-sonnet-4-6', description: 'Recommended model (Sonnet)' },
  {
    alias: 'sonnet',
    model: 'claude-sonnet-4-6',
    description: 'Sonnet: the newest Sonnet model for daily coding',
  },
  {
    alias: 'opus',
    model: 'claude-opus-4-6',
    description: 'Opus: the newest Opus model for complex reasoning',
  },
  { alias: 'haiku', model: 'claude-haiku-4-5', description: 'Haiku: the newest Haiku model, fast and cheap' },
  {
    alias: 'opusplan',
    model: 'claude-sonnet-4-6',
    description: 'Opus in plan mode, Sonnet otherwise (the engine runs it on Sonnet)',
  },
]

const BY_NAME: ReadonlyMap<string, ModelAlias> = new Map(MODEL_ALIASES.map((entry) => [entry.alias, entry]))

/** The catalog id an alias names (`opus` → `claude-opus-4-6`), or undefined when the name is no alias. */
export function resolveModelAlias(name: string): string | undefined {
  return BY_NAME.get(name.trim().toLowerCase())?.model
}

/** The names that are aliases (for completion and "did you mean"). */
export function modelAliasNames(): string[] {
  return MODEL_ALIASES.map((entry) => entry.alias)
}

/** A model id with an alias resolved; any other id as given. Known ids and aliases alike end priced. */
export function canonicalModelId(id: string): string {
  return resolveModelAlias(id) ?? id
}
