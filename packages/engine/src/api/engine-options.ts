import type { SandboxBackend } from '@z-engine/host'
import type { EventEnvelope, PermissionMode, SettingsLayer } from '@z-engine/protocol'
import type { SessionStore } from '@z-engine/store'
import type { SystemPromptOption } from '../assembly/system-prompt.js'
import type { CanUseTool } from '../batch/can-use-tool.js'
import type { InProcessMcpServer } from '../mcp/mcp-manager.js'
import type { ClientFactory } from '../model/client-factory.js'
import type { CodeAgentDefinition } from '../workspace/definitions/code-agents.js'
import type { HookCallbacks } from '../workspace/hooks/hook-callbacks.js'
import type { DefinedTool } from './define-tool.js'

/** How an embedder creates the engine. Every field is optional; the defaults suit a CLI. */
export interface EngineOptions {
  /** Sessions, artifacts, checkpoints (default: the XDG data home's `z-engine`). */
  dataDir?: string
  /** User settings and trust.json (default: the XDG config home's `z-engine`). */
  configDir?: string
  home?: string
  /** The environment settings overrides and provider keys come from (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>
  /** Creates model clients; tests and embedders inject scripted ones. */
  clientFactory?: ClientFactory
  /** Receives every event of every session, in order per session. */
  onEvent?: (envelope: EventEnvelope) => void
  /** The session store backend (default: the file store in `dataDir`). */
  store?: SessionStore
  /**
   * The shell sandbox backend (default: detected — bubblewrap on Linux, seatbelt on macOS).
   * `{ kind: 'none', … }` runs commands unconfined, with one warning per session.
   */
  sandboxBackend?: SandboxBackend
  /** Tools defined in code (`defineTool`) every session offers, after the built-ins. */
  tools?: readonly DefinedTool[]
  /** The default permission callback of every session (see `OpenSessionOptions.canUseTool`). */
  canUseTool?: CanUseTool
  /** How long `canUseTool` may take before the call is denied (default 300 000 ms). */
  canUseToolTimeoutMs?: number
  /** Hook functions every session runs, after the shell hooks of each event (see docs/embedding.md). */
  hooks?: HookCallbacks
  /**
   * Settings in code: the keys of settings.toml (snake_case), validated when the engine is created,
   * layered above every settings file and the environment.
   */
  settings?: SettingsLayer
  /**
   * Read nothing of the user's: no user settings file, no `Z_ENGINE_*` settings variables, no
   * `~/.claude` or `~/.config/z-engine` instructions, rules, agents, skills or commands, no user data
   * or trust. Sessions live in `dataDir` when given, else in a temporary folder removed at shutdown.
   * Provider keys still come from `env`.
   */
  isolated?: boolean
}

/** How to open a session. */
export interface OpenSessionOptions {
  projectRoot: string
  /**
   * Where the main agent's shell starts: a folder inside `projectRoot`, such as the subfolder of a
   * repository the user ran from (the project is the repository). Default the project root; not
   * journaled, so pass it again when resuming.
   */
  cwd?: string
  /** Continue a stored session. */
  resume?: string
  /** Start a new session holding a stored one's log (up to a record, default all) and continue it. */
  fork?: { sessionId: string; uptoRecordId?: string }
  /**
   * The id a new (or forked) session gets instead of a random UUID (Claude Code's `--session-id`);
   * an id that is taken fails with `invalidOption`. Not with `resume`.
   */
  sessionId?: string
  mode?: PermissionMode | 'bypassPermissions'
  /** A model reference (`anthropic/claude-sonnet-4-5`, `openai-chat/qwen3`, `scripted:file.jsonl`). */
  model?: string
  title?: string
  /**
   * In-process MCP servers for this session: each `connect` returns the client end of an SDK
   * `InMemoryTransport.createLinkedPair()` whose other end the embedder's `McpServer` is connected to.
   */
  mcpServers?: readonly InProcessMcpServer[]
  /**
   * Resolve only once every MCP server is ready or has failed (each within its start timeout).
   * Sessions otherwise start servers in the background; a headless run (`z-engine exec`) has one
   * prompt, whose first request would go out before any server's tools exist.
   */
  waitForMcp?: boolean
  /**
   * Tools defined in code for this session, after the engine's. Code is not journaled: pass them again
   * when resuming (tools given to `Engine.create` are there on every resume).
   */
  tools?: readonly DefinedTool[]
  /**
   * Sees every tool call the hooks and the policy did not deny, with the policy's verdict; answers
   * allow (optionally with new input), deny with a message, or ask (the normal approval). A throw or
   * no answer within `canUseToolTimeoutMs` denies. Replaces the engine's callback for this session.
   */
  canUseTool?: CanUseTool
  /** Hook functions for this session, after the engine's. */
  hooks?: HookCallbacks
  /**
   * Subagents defined in code, by name: the model delegates to them with the Agent tool
   * (`subagent_type`), as to agent files; they replace same-named ones from the folders. Checked
   * strictly: a field that cannot be honoured fails with `invalidOption`. Not journaled: pass them
   * again when resuming.
   */
  agents?: Readonly<Record<string, CodeAgentDefinition>>
  /** Settings in code for this session, above the engine's `settings`. */
  settings?: SettingsLayer
  /**
   * The system prompt: a string replaces the engine's base prompt (environment, instructions and the
   * repository map still follow it); `{ append }` adds text after the base prompt. Not journaled:
   * pass it again when resuming.
   */
  systemPrompt?: SystemPromptOption
}

/** The typed failure of `openSession`; `message` says what to do. */
export class EngineError extends Error {
  constructor(
    readonly code: 'sessionNotFound' | 'storeFailed' | 'invalidOption' | 'modelUnavailable',
    message: string,
  ) {
    super(message)
  }
}
