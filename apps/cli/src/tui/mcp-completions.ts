import type { McpPromptCommand } from '@z-engine/engine/definitions'
import type { McpResourceEntry } from '@z-engine/engine/mcp'
import type { CompletionRow } from './composer.js'
import type { SlashCommand } from './slash-commands.js'

/** The prompts of the ready MCP servers as `/` commands (`/mcp__<server>__<prompt>`), with their arguments as the hint. */
export function mcpPromptCommands(prompts: readonly McpPromptCommand[]): SlashCommand[] {
  return prompts.map((prompt) => {
    const hint = prompt.arguments
      .map((argument) => (argument.required ? `<${argument.name}>` : `[${argument.name}]`))
      .join(' ')
    return {
      name: `mcp__${prompt.server}__${prompt.prompt}`,
      description: prompt.description,
      ...(hint !== '' ? { argumentHint: hint } : {}),
      owner: 'engine',
    }
  })
}

/**
 * `@server:uri` completions for the `@` token being typed (`query` without the `@`): resources whose
 * `server:uri` starts with the query first, then those whose name or address holds it.
 */
export function resourceRows(
  resources: readonly McpResourceEntry[],
  query: string,
  limit: number,
): CompletionRow[] {
  const needle = query.toLowerCase()
  const scored = resources.flatMap((resource) => {
    const key = `${resource.server}:${resource.uri}`
    const lower = key.toLowerCase()
    const score = lower.startsWith(needle)
      ? 0
      : lower.includes(needle) || resource.name.toLowerCase().includes(needle)
        ? 1
        : -1
    return score < 0 ? [] : [{ key, score, resource }]
  })
  scored.sort((a, b) => a.score - b.score || a.key.localeCompare(b.key))
  return scored.slice(0, limit).map(({ key, resource }) => ({
    key,
    label: `@${key}`,
    description: resource.description ?? resource.name,
  }))
}
