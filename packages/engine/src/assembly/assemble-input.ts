import type { SandboxBackend } from '@z-engine/host'
import type { SessionLog, SessionStore } from '@z-engine/store'
import type { Tool } from '@z-engine/tools'
import type { CanUseTool } from '../batch/can-use-tool.js'
import type { InProcessMcpServer } from '../mcp/mcp-manager.js'
import type { ClientFactory } from '../model/client-factory.js'
import type { ModelClient } from '../model/types.js'
import type { RepoMapService } from '../repo-map/repo-map-service.js'
import type { EventHub } from '../session/event-hub.js'
import type { SessionState } from '../session/state.js'
import type { AgentDefinition } from '../workspace/definitions/types.js'
import type { EnginePaths } from '../workspace/engine-paths.js'
import type { HookCallbacks } from '../workspace/hooks/hook-callbacks.js'
import type { LoadedSettings } from '../workspace/settings/load-settings.js'
import type { SystemPromptOption } from './system-prompt.js'

/** Everything `Engine.openSession` resolved before the session is built. */
export interface AssembleInput {
  sessionId: string
  projectRoot: string
  /** Where the main agent's shell starts (inside the project); default the project root. */
  cwd?: string
  paths: EnginePaths
  env: Readonly<Record<string, string | undefined>>
  store: SessionStore
  log: SessionLog
  loaded: LoadedSettings
  state: SessionState
  hub: EventHub
  clientFactory: ClientFactory
  /** The factory is the embedder's: references the catalog does not know go to it as given. */
  injectedFactory?: boolean
  /** The main model's client, created (and already warming) when the session was opened. */
  client: { client: ModelClient; model: string }
  resumed: boolean
  /** What replaying a resumed session's log skipped (`file at byte N (kind): why`), said once it opens. */
  replayProblems?: readonly string[]
  trusted: boolean
  newId: (prefix: string) => string
  /** Reads the settings and the trust decision again, for `reloadSettings` and `trustWorkspace`. */
  reloadSettings: () => Promise<{ loaded: LoadedSettings; trusted: boolean }>
  /** Records that the user trusts this workspace. */
  trust: () => Promise<{ ok: true } | { ok: false; error: string }>
  /** An embedder's in-process MCP servers (SDK in-memory transports). */
  mcpServers?: readonly InProcessMcpServer[]
  /** Return only once every MCP server is ready or failed (headless runs). */
  waitForMcp?: boolean
  /** The sandbox backend (default: detected on this machine). */
  sandboxBackend?: SandboxBackend
  /** The embedder's tools (engine's, then session's) as engine tools, offered after the built-ins. */
  definedTools?: readonly Tool[]
  /** The embedder's subagents (`OpenSessionOptions.agents`, checked), above every folder's. */
  codeAgents?: readonly AgentDefinition[]
  /** The host's permission callback and how long it may take. */
  canUseTool?: { callback: CanUseTool; timeoutMs: number }
  /** The embedder's hook functions (engine's, then session's). */
  hookCallbacks?: HookCallbacks
  /** Isolated mode: read none of the user's own files (instructions, rules, definitions). */
  isolated?: boolean
  /** The embedder's system prompt (replacing or extending the base prompt). */
  systemPrompt?: SystemPromptOption
  /** The main agent's repository map, already building (see {@link startRepoMap}); none when off. */
  repoMap?: RepoMapService
}
