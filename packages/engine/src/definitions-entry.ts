/**
 * @z-engine/engine/definitions: agent, command and skill definitions, instructions and path rules, the `/` command catalog and its expansion outside a session. For the repository's own apps (the CLI, the gateway); unstable: names
 * and shapes may change between minor versions. An embedder uses `@z-engine/engine`.
 */

/** The note of a chat's `# note` line, or null (a `## heading` is not one). */
export { parseMemoryNote } from '@z-engine/context'
/** Opens what command expansion needs without a session. */
export { openStandaloneExpansion } from './assembly/standalone-expansion.js'
/** An entry of the command catalog (`/` commands), and an MCP prompt offered as one. */
export type { CatalogEntry, McpPromptCommand } from './workspace/commands/catalog.js'
/** Builds the command catalog and resolves a command in it. */
export { buildCommandCatalog, resolveCommand } from './workspace/commands/catalog.js'
/** Expands a prompt command. */
export { expandCommand } from './workspace/commands/expand.js'
/** Loaders of agent, command and skill definitions. */
export {
  loadAgentDefinitions,
  loadCommandDefinitions,
  loadSkillDefinitions,
} from './workspace/definitions/load.js'
/** Definitions and what loading them found. */
export type {
  DefinitionIssue,
  DefinitionLayer,
  DefinitionRoots,
  DefinitionWarning,
} from './workspace/definitions/types.js'
/** Loads AGENTS.md/CLAUDE.md instructions. */
export { loadInstructions } from './workspace/instructions/instructions-load.js'
/** Loads path rules. */
export { loadRules } from './workspace/instructions/rules-load.js'
