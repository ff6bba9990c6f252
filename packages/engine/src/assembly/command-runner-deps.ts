import type { CommandSandbox, ProcessScope } from '@z-engine/host'
import type { Settings } from '@z-engine/protocol'
import type { JobPort, Tool } from '@z-engine/tools'
import type { SessionGate } from '../gate/session-gate.js'
import type { McpManager } from '../mcp/mcp-manager.js'
import type { SessionCore } from '../session/session-core.js'
import type { SessionVerification } from '../verification/session-verification.js'
import type { AgentDefinition, PluginDefinitionSource } from '../workspace/definitions/types.js'
import type { WorktreeAccess } from './job-commands.js'
import type { SessionModels } from './model-port.js'
import type { SessionSystemPrompt } from './system-prompt.js'

/** What the command runner reaches. */
export interface CommandRunnerDeps {
  session: SessionCore
  /** The main agent's toolset (for `/context` and `/status`). */
  tools: readonly Tool[]
  settings: Settings
  projectRoot: string
  home: string
  configDir: string
  /** Read the user's own files (false in isolated mode). */
  userFiles?: boolean
  /** Enabled plugins' commands and skills (`/plugin:command`). */
  plugins?: readonly PluginDefinitionSource[]
  /** The engine's data folder (installed plugins, for `/plugin`). */
  dataDir: string
  /** The settings in effect now (after reloads), which `/plugin` reads for marketplaces and plugins. */
  pluginSettings?: Settings
  /** Reloads the session (what `/plugin` installed or toggled becomes live); absent: nothing reloads. */
  reload?: () => Promise<unknown>
  trusted: boolean
  gate: SessionGate
  models: SessionModels
  system: SessionSystemPrompt
  agents: readonly AgentDefinition[]
  /** The environment `!` lines start from (filtered by `[shell.env]`). */
  baseEnv: Readonly<Record<string, string | undefined>>
  /** The session's MCP servers (prompts as commands, `/mcp`). */
  mcp?: McpManager
  /** Confines a command's embedded shell lines (absent: they run unconfined). */
  sandbox?: CommandSandbox
  /** The session whose close kills what embedded lines left running. */
  scope?: ProcessScope
  /** The session's checks and records (for `/status`). */
  verification?: SessionVerification
  /** Background shells and agents (`/jobs`). */
  jobs?: JobPort
  /** Worktree agents' waiting changes (`/worktrees`). */
  worktrees?: WorktreeAccess
}
