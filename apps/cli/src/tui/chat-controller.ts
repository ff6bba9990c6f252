import type { Engine, Session } from '@z-engine/engine'
import { buildCommandCatalog, loadCommandDefinitions } from '@z-engine/engine/definitions'
import type { McpResourceEntry } from '@z-engine/engine/mcp'
import { parseModelRef, resolveModelInfo } from '@z-engine/engine/models'
import { pluginDefinitionSources } from '@z-engine/engine/plugins'
import { mcpCompletionsOf } from '@z-engine/engine/session-access'
import { createTrustStore } from '@z-engine/engine/settings'
import type { Command, PermissionMode, RewindScope } from '@z-engine/protocol'
import { listSessionRows, type SessionRow } from '../sessions/session-listing.js'
import type { EventFeed, EventListener } from './event-feed.js'
import type { HistoryEntry } from './input-history.js'
import { mcpPromptCommands } from './mcp-completions.js'
import { appendPromptHistory, loadPromptHistory } from './prompt-history.js'
import { replayOutputs, replayPrompts, replayTranscript } from './replay-transcript.js'
import { CLI_COMMANDS, type SlashCommand } from './slash-commands.js'
import type { TrustSummary } from './trust-panel.js'

/** The settings layers a project brings itself (trust-gated), as the engine names them. */
const PROJECT_LAYER_NAMES: ReadonlySet<string> = new Set([
  'project',
  'local',
  'claudeProject',
  'claudeLocal',
  'mcpJson',
])

import { type ChatState, initialChatState, type TranscriptEntry } from './view-model.js'

/** How the chat opens its sessions (the flags of `z-engine`). */
export interface ChatSessionOptions {
  projectRoot: string
  model?: string
  mode?: PermissionMode
  /** `model.context_window` from settings, which overrides the catalog. */
  contextWindow?: number
  /** The CLI version the banner shows. */
  version?: string
}

/**
 * What the chat screen needs from the engine, in one place: the open session, its events, the
 * commands to complete, and a fresh session for `/clear`. The screen never touches the engine itself.
 */
export class ChatController {
  #session: Session

  constructor(
    readonly engine: Engine,
    readonly feed: EventFeed,
    session: Session,
    readonly options: ChatSessionOptions,
    /** The `/` commands the composer completes: the CLI's own, then the engine's. */
    commands: readonly SlashCommand[],
  ) {
    this.#session = session
    this.#commands = commands
  }

  #commands: readonly SlashCommand[]
  readonly #commandListeners = new Set<() => void>()

  /** Calls `listener` each time the `/` commands change (after a reload); returns the unsubscribe function. */
  onCommandsChanged(listener: () => void): () => void {
    this.#commandListeners.add(listener)
    return () => {
      this.#commandListeners.delete(listener)
    }
  }

  /**
   * The `/` commands the composer completes, re-read whenever the session reloads its settings,
   * then the prompts of the MCP servers ready now (`/mcp__<server>__<prompt>`).
   */
  get commands(): readonly SlashCommand[] {
    const prompts = mcpPromptCommands(mcpCompletionsOf(this.#session).prompts()).filter(
      (prompt) => !this.#commands.some((command) => command.name === prompt.name),
    )
    return prompts.length === 0 ? this.#commands : [...this.#commands, ...prompts]
  }

  /** The resources the ready MCP servers list, for `@server:uri` completion (none when listing fails). */
  mcpResources(): Promise<McpResourceEntry[]> {
    return mcpCompletionsOf(this.#session)
      .resources(AbortSignal.timeout(10_000))
      .catch(() => [])
  }

  /**
   * The context window of a model for the status line's meter, when the engine's usage events do
   * not carry one: the settings override (`model.context_window`), else the model catalog's.
   */
  contextWindowOf(model: string): number {
    if (this.options.contextWindow !== undefined) return this.options.contextWindow
    const parsed = parseModelRef(model)
    return resolveModelInfo(parsed.ok ? parsed.ref.model : model).contextWindow
  }

  /** The session the screen shows. */
  get session(): Session {
    return this.#session
  }

  /** Sends a command to the current session. */
  send(command: Command): void {
    this.#session.send(command)
  }

  /** Delivers every engine event (held ones first); returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    return this.feed.subscribe((envelope) => {
      // A reload (`/plugin`, `/reload`, trust) may add or remove commands: completion follows it.
      if (envelope.event.type === 'notice' && envelope.event.code === 'settings') void this.#refreshCommands()
      listener(envelope)
    })
  }

  async #refreshCommands(): Promise<void> {
    this.#commands = await loadSlashCommands(this.engine, this.options.projectRoot)
    for (const listener of this.#commandListeners) listener()
  }

  /** The state a screen starts from; a resumed session shows its stored transcript first. */
  initialState(): Promise<ChatState> {
    return this.#stateOf(this.#session)
  }

  async #stateOf(session: Session): Promise<ChatState> {
    const replayed = await this.engine.store.replay(session.id)
    const snapshot = replayed.ok ? replayed.value.snapshot : undefined
    const banner: TranscriptEntry = {
      kind: 'banner',
      key: 'banner',
      version: this.options.version ?? '',
      projectRoot: session.projectRoot,
      sessionId: session.id,
    }
    const replayedRows = snapshot ? replayTranscript(snapshot.transcript, this.options.projectRoot) : []
    return initialChatState({
      sessionId: session.id,
      projectRoot: session.projectRoot,
      mode: session.mode,
      model: session.model,
      finished: [banner, ...replayedRows],
      costUsd: snapshot?.cost.totalUsd ?? 0,
      prompts: snapshot ? replayPrompts(snapshot.transcript, snapshot.turns) : [],
      outputs: replayOutputs(replayedRows, session.projectRoot),
      checkpoints: snapshot ? snapshot.checkpoints.map((checkpoint) => checkpoint.messageId) : [],
    })
  }

  /** `/rewind`: restores code, conversation or both to just before a user message (engine's rewind). */
  rewind(messageId: string, scope: RewindScope): void {
    this.#session.send({ type: 'rewind', messageId, scope })
  }

  /** `/resume`: this project's stored sessions, most recent first, without the open one. */
  async sessionRows(): Promise<SessionRow[]> {
    const rows = await listSessionRows(this.engine, this.options.projectRoot)
    return rows.filter((row) => row.sessionId !== this.#session.id)
  }

  /** `/resume`: closes this session (it stays stored) and opens a stored one in its place. */
  async resume(sessionId: string): Promise<ChatState> {
    // Opened before the old one closes, so a session that fails to open leaves the chat as it was.
    const next = await this.engine.openSession({
      projectRoot: this.options.projectRoot,
      resume: sessionId,
      ...(this.options.model !== undefined ? { model: this.options.model } : {}),
    })
    const previous = this.#session
    const state = await this.#switchTo(next)
    await previous.close({ reason: 'other' })
    return state
  }

  /** `/clear`: closes this session (it stays stored) and opens a new one with the same options. */
  async restart(): Promise<ChatState> {
    await this.#session.close({ reason: 'clear' })
    const next = await this.engine.openSession({
      projectRoot: this.options.projectRoot,
      mode: this.#session.mode,
      ...(this.options.model !== undefined ? { model: this.#session.model } : {}),
    })
    return this.#switchTo(next)
  }

  /**
   * Makes `next` the chat's session only once its state is read: a prompt typed meanwhile cannot
   * start a turn in `next` that the replay would then show as interrupted (and the reset erase).
   */
  async #switchTo(next: Session): Promise<ChatState> {
    const state = await this.#stateOf(next)
    this.#session = next
    return state
  }

  /** `/sessions`: this project's stored sessions, newest first, as markdown. */
  async sessionsMarkdown(): Promise<string> {
    const sessions = await this.engine.listSessions(this.options.projectRoot)
    if (sessions.length === 0) return 'No sessions in this project yet.'
    const rows = sessions.slice(0, 20).map((summary) => {
      const current = summary.sessionId === this.#session.id ? ' (this one)' : ''
      const title = summary.title !== undefined ? ` ${summary.title}` : ''
      return `- \`${summary.sessionId}\` ${summary.lastActivity.slice(0, 16).replace('T', ' ')}${title}${current}`
    })
    return [
      ...rows,
      '',
      'Resume one with `z-engine --resume <id>`, the latest with `z-engine --continue`.',
    ].join('\n')
  }

  /** What trusting this project would turn on, counted from its own settings files (for the trust prompt). */
  async trustSummary(): Promise<TrustSummary> {
    const store = createTrustStore(this.engine.paths.configDir)
    const root = this.#session.projectRoot
    const [loaded, trusted] = await Promise.all([this.engine.settings(root), store.isTrusted(root)])
    let hooks = 0
    let allowRules = 0
    const servers = new Set<string>()
    for (const layer of loaded.readLayers) {
      if (!PROJECT_LAYER_NAMES.has(layer.name)) continue
      const data = layer.data as {
        hooks?: Record<string, unknown[] | undefined>
        permissions?: { allow?: unknown[] }
        mcp?: { servers?: Record<string, unknown> }
      }
      for (const entries of Object.values(data.hooks ?? {})) hooks += entries?.length ?? 0
      allowRules += data.permissions?.allow?.length ?? 0
      for (const name of Object.keys(data.mcp?.servers ?? {})) servers.add(name)
    }
    // The categories are computed as if untrusted, so a trusted project still lists what it sets.
    const categories = trusted ? [] : loaded.trustRequired
    return {
      projectRoot: root,
      trusted,
      hooks,
      allowRules,
      mcpServers: servers.size,
      categories,
      file: store.file,
    }
  }

  /** The prompts sent in this project before, oldest first, for ↑/↓. */
  promptHistory(): Promise<HistoryEntry[]> {
    return loadPromptHistory(this.engine.paths.dataDir, this.options.projectRoot)
  }

  /** Records a sent prompt in the project's history (kept in the data folder), with its pastes as typed. */
  rememberPrompt(text: string, typed?: HistoryEntry): Promise<void> {
    return appendPromptHistory(this.engine.paths.dataDir, this.options.projectRoot, text, typed)
  }

  /** Closes the session and the engine (journals flushed). */
  async close(): Promise<void> {
    // SessionEnd hooks hear that the user left the chat (Claude Code's prompt_input_exit).
    await this.#session.close({ reason: 'prompt_input_exit' })
    await this.engine.shutdown()
  }
}

/**
 * The `/` commands to complete: the CLI's own, then the session's catalog as `runCommand` resolves
 * it (engine built-ins, the project's and user's custom commands, the shipped `/init`, `/review`,
 * `/commit`).
 */
export async function loadSlashCommands(engine: Engine, projectRoot: string): Promise<SlashCommand[]> {
  const commands: SlashCommand[] = [...CLI_COMMANDS]
  let custom: Awaited<ReturnType<typeof loadCommandDefinitions>>['definitions'] = []
  try {
    const settings = await engine.settings(projectRoot)
    custom = (
      await loadCommandDefinitions({
        projectRoot,
        home: engine.paths.home,
        configDir: engine.paths.configDir,
        compatClaude: settings.settings.compat.claude,
        plugins: pluginDefinitionSources(settings.plugins),
      })
    ).definitions
  } catch {
    // Completion is a convenience: a broken command folder must not keep the chat from starting.
  }
  for (const entry of buildCommandCatalog({ custom }).entries) {
    if (commands.some((command) => command.name === entry.name)) continue
    commands.push({
      name: entry.name,
      description: entry.description,
      ...(entry.kind !== 'mcp' && entry.argumentHint !== undefined
        ? { argumentHint: entry.argumentHint }
        : {}),
      owner: 'engine',
    })
  }
  return commands
}
