import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve, sep } from 'node:path'
import { killSupervisedGroups, type SandboxBackend } from '@z-engine/host'
import { normalizeMode } from '@z-engine/policy'
import type { EventEnvelope } from '@z-engine/protocol'
import {
  openStore,
  type SessionLog,
  type SessionSnapshot,
  type SessionStore,
  type SessionSummary,
} from '@z-engine/store'
import { assembleSession } from '../assembly/assemble-session.js'
import { modelRefFromSettings, providerSettingsOf } from '../assembly/model-port.js'
import type { SessionView } from '../assembly/session-view.js'
import { startRepoMap } from '../assembly/start-repo-map.js'
import { CAN_USE_TOOL_TIMEOUT_MS, type CanUseTool } from '../batch/can-use-tool.js'
import { type ClientFactory, createDefaultClientFactory } from '../model/client-factory.js'
import { parseModelRef } from '../model/model-ref.js'
import type { RepoMapService } from '../repo-map/repo-map-service.js'
import { EventHub } from '../session/event-hub.js'
import type { SessionCore } from '../session/session-core.js'
import type { Session } from '../session/session-types.js'
import { SessionState } from '../session/state.js'
import { newId } from '../util/ids.js'
import { codeAgentDefinitions } from '../workspace/definitions/code-agents.js'
import type { AgentDefinition } from '../workspace/definitions/types.js'
import { type EnginePaths, isolatedEnginePaths, resolveEnginePaths } from '../workspace/engine-paths.js'
import { type HookCallbacks, mergeHookCallbacks } from '../workspace/hooks/hook-callbacks.js'
import { codeSettingsLayer } from '../workspace/settings/code-layer.js'
import type { LoadedLayer } from '../workspace/settings/layers.js'
import { type LoadedSettings, loadSettings } from '../workspace/settings/load-settings.js'
import { createTrustStore, type TrustStore } from '../workspace/settings/trust-store.js'
import { checkToolSchemas, type DefinedTool } from './define-tool.js'
import { collectDefinedTools, definedToolAsTool } from './defined-tools.js'
import { EngineError, type EngineOptions, type OpenSessionOptions } from './engine-options.js'

/** What `openSession` resolved before the session's journal opens. */
interface Opening {
  projectRoot: string
  cwd: string | undefined
  trusted: boolean
  loaded: LoadedSettings
  sessionSettings: LoadedLayer | undefined
  tools: { ok: true; tools: DefinedTool[] }
  /** The subagents defined in code (`options.agents`), checked. */
  agents: AgentDefinition[]
  canUseTool: CanUseTool | undefined
  repoMap: RepoMapService | undefined
  /** The session's state once it exists: a map that missed the first request becomes its reminder. */
  late: { state?: SessionState }
}

/**
 * The process-wide engine: paths, the session store, the model client factory and the event sink,
 * shared by every session it opens. Sessions are independent (separate logs, cwd and policies).
 */
export class Engine {
  readonly paths: EnginePaths
  readonly store: SessionStore
  readonly #env: Readonly<Record<string, string | undefined>>
  readonly #clientFactory: ClientFactory
  readonly #injectedFactory: boolean
  readonly #sandboxBackend: SandboxBackend | undefined
  readonly #onEvent: ((envelope: EventEnvelope) => void) | undefined
  readonly #trust: TrustStore
  readonly #sessions = new Set<Session>()
  readonly #tools: readonly DefinedTool[]
  readonly #canUseTool: CanUseTool | undefined
  readonly #canUseToolTimeoutMs: number
  readonly #hooks: HookCallbacks | undefined
  readonly #codeSettings: LoadedLayer | undefined
  readonly #isolated: boolean
  /** A temporary data folder this engine made (isolated mode) and removes at shutdown. */
  readonly #tempDataDir: string | undefined

  private constructor(
    options: EngineOptions,
    resolved: { codeSettings: LoadedLayer | undefined; tempDataDir: string | undefined },
  ) {
    this.#env = options.env ?? process.env
    this.#isolated = options.isolated === true
    this.#codeSettings = resolved.codeSettings
    this.#tempDataDir = resolved.tempDataDir
    this.paths = this.#isolated
      ? isolatedEnginePaths(options, this.#env, resolved.tempDataDir)
      : resolveEnginePaths(options, this.#env)
    this.store = options.store ?? openStore({ dataDir: this.paths.dataDir })
    this.#clientFactory = options.clientFactory ?? createDefaultClientFactory({ env: this.#env })
    this.#injectedFactory = options.clientFactory !== undefined
    this.#sandboxBackend = options.sandboxBackend
    this.#onEvent = options.onEvent
    this.#trust = createTrustStore(this.paths.configDir)
    this.#tools = options.tools ?? []
    this.#canUseTool = options.canUseTool
    this.#hooks = options.hooks
    this.#canUseToolTimeoutMs = options.canUseToolTimeoutMs ?? CAN_USE_TOOL_TIMEOUT_MS
  }

  /**
   * Creates an engine. Nothing is read or started until a session opens. Throws `EngineError`
   * (`invalidOption`) when `settings` does not fit the settings schema, `ToolDefinitionError` when a
   * tool's schema does not compile.
   */
  static async create(options: EngineOptions = {}): Promise<Engine> {
    await checkToolSchemas(options.tools)
    const codeSettings =
      options.settings === undefined ? undefined : checkedSettings(options.settings, 'settings')
    const tempDataDir =
      options.isolated === true && options.dataDir === undefined
        ? await mkdtemp(join(tmpdir(), 'z-engine-'))
        : undefined
    return new Engine(options, { codeSettings, tempDataDir })
  }

  /** The sessions open now. */
  get sessions(): readonly Session[] {
    return [...this.#sessions]
  }

  /** Stored sessions, most recent first (only this project's when given). */
  listSessions(projectRoot?: string): Promise<SessionSummary[]> {
    return this.store.list(projectRoot !== undefined ? { projectRoot: resolve(projectRoot) } : {})
  }

  /**
   * A stored session's full id from its id or a unique prefix of it (as `git` takes short hashes):
   * an exact id wins; a prefix must match exactly one session. The error says which it was.
   */
  async resolveSessionId(
    idOrPrefix: string,
  ): Promise<{ ok: true; id: string } | { ok: false; message: string }> {
    const wanted = idOrPrefix.trim()
    if (wanted === '')
      return { ok: false, message: 'The session id is empty; z-engine sessions list shows them.' }
    const all = await this.store.list()
    if (all.some((session) => session.sessionId === wanted)) return { ok: true, id: wanted }
    const matches = all.filter((session) => session.sessionId.startsWith(wanted))
    const [only] = matches
    if (matches.length === 1 && only) return { ok: true, id: only.sessionId }
    if (matches.length === 0)
      return {
        ok: false,
        message: `No stored session has an id starting '${wanted}'; z-engine sessions list shows them.`,
      }
    const shown = matches
      .slice(0, 5)
      .map((session) => `${session.sessionId} (${session.title ?? 'untitled'})`)
    return {
      ok: false,
      message: `'${wanted}' matches ${matches.length} sessions: ${shown.join(', ')}${matches.length > 5 ? ', …' : ''}. Give more of the id.`,
    }
  }

  /** Loads the effective settings of a project (for `settings explain`, `hooks list`, …). */
  async settings(projectRoot: string): Promise<LoadedSettings> {
    const root = await canonicalRoot(projectRoot)
    return this.#loadSettings(root, await this.#trust.isTrusted(root))
  }

  #loadSettings(projectRoot: string, trusted: boolean, session?: LoadedLayer): Promise<LoadedSettings> {
    const code = [this.#codeSettings, session].filter((layer): layer is LoadedLayer => layer !== undefined)
    return loadSettings({
      home: this.paths.home,
      configDir: this.paths.configDir,
      projectRoot,
      env: this.#env,
      trusted,
      ...(code.length > 0 ? { code } : {}),
      ...(this.#isolated ? { isolated: true } : { dataDir: this.paths.dataDir }),
    })
  }

  /** Records that the user trusts a workspace (its project settings then apply in full). */
  trustWorkspace(projectRoot: string) {
    return this.#trust.trust(projectRoot)
  }

  /** Opens a new, resumed or forked session. */
  async openSession(options: OpenSessionOptions): Promise<Session> {
    const tools = collectDefinedTools(this.#tools, options.tools)
    if (!tools.ok) throw new EngineError('invalidOption', tools.message)
    await checkToolSchemas(options.tools)
    const agents = codeAgentDefinitions(options.agents ?? {})
    if (!agents.ok) throw new EngineError('invalidOption', agents.error)
    const canUseTool = options.canUseTool ?? this.#canUseTool
    const sessionSettings =
      options.settings === undefined ? undefined : checkedSettings(options.settings, 'openSession settings')
    const projectRoot = await canonicalRoot(options.projectRoot)
    const cwd = options.cwd === undefined ? undefined : await canonicalRoot(options.cwd)
    if (cwd !== undefined && cwd !== projectRoot && !cwd.startsWith(`${projectRoot}${sep}`))
      throw new EngineError(
        'invalidOption',
        `cwd ${cwd} is outside the project ${projectRoot}; pass a folder inside it, or open the session with that folder as its projectRoot.`,
      )
    const trusted = await this.#trust.isTrusted(projectRoot)
    const loaded = await this.#loadSettings(projectRoot, trusted, sessionSettings)
    // The repository map starts building now (issue 17): its walk and outline-cache read overlap
    // with opening the journal and assembling the session instead of delaying the first request.
    const late: { state?: SessionState } = {}
    const repoMap = startRepoMap(loaded.settings, projectRoot, this.paths.dataDir, (text) => {
      late.state?.reminders.push(text)
    })
    const opening = {
      projectRoot,
      cwd,
      trusted,
      loaded,
      sessionSettings,
      tools,
      agents: agents.definitions,
      canUseTool,
      repoMap,
      late,
    }
    return this.#open(options, opening).catch(async (error: unknown) => {
      // A session that did not open builds no map.
      await repoMap?.close()
      throw error
    })
  }

  /** The rest of `openSession`, once the project, its settings and the map's build are under way. */
  async #open(options: OpenSessionOptions, opening: Opening): Promise<Session> {
    const { projectRoot, cwd, trusted, loaded, sessionSettings, tools, agents, canUseTool, repoMap } = opening
    const settings = loaded.settings

    let log: SessionLog
    let snapshot: SessionSnapshot | undefined
    let replayProblems: string[] = []
    let sessionId: string
    if (options.sessionId !== undefined && options.resume !== undefined)
      throw new EngineError(
        'invalidOption',
        'A resumed session keeps its id; give sessionId only to a new or forked one.',
      )
    const resumeId = options.fork
      ? await this.#fork(
          { ...options.fork, sessionId: await this.#sessionIdOf(options.fork.sessionId) },
          options.sessionId,
        )
      : options.resume !== undefined
        ? await this.#sessionIdOf(options.resume)
        : undefined
    if (resumeId !== undefined) {
      const replayed = await this.store.replay(resumeId)
      if (!replayed.ok) throw new EngineError('sessionNotFound', replayed.error.message)
      snapshot = replayed.value.snapshot
      replayProblems = replayed.value.problems.map(
        (problem) => `${problem.file} at byte ${problem.offset} (${problem.kind}): ${problem.message}`,
      )
      const opened = await this.store.open(resumeId)
      if (!opened.ok) throw new EngineError('storeFailed', opened.error.message)
      log = opened.value
      sessionId = resumeId
    } else {
      const created = await this.store.create({
        projectRoot,
        ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
      })
      if (!created.ok)
        throw new EngineError(
          idProblem(created.error.code) ? 'invalidOption' : 'storeFailed',
          created.error.message,
        )
      log = created.value
      sessionId = log.sessionId
    }

    const explicitMode = options.mode !== undefined ? normalizeMode(options.mode) : undefined
    if (options.mode !== undefined && explicitMode === undefined) {
      throw new EngineError(
        'invalidOption',
        `Unknown permission mode '${options.mode}'; use default, acceptEdits, plan or bypass.`,
      )
    }
    const state = new SessionState({
      mode: explicitMode ?? snapshot?.mode ?? settings.permissions.mode,
      modelRef: options.model ?? snapshot?.model ?? modelRefFromSettings(settings),
      ...((options.title ?? snapshot?.title) !== undefined
        ? { title: (options.title ?? snapshot?.title) as string }
        : {}),
    })
    // The route seam never touches a model the user chose (`/model`). The journal does not say how a
    // resumed session's model was chosen, so one continuing on a model other than the settings' own
    // is treated as chosen (fail closed: routing does less, never more).
    if (options.model === undefined && snapshot?.model !== undefined)
      state.modelPinned = snapshot.model !== modelRefFromSettings(settings)
    opening.late.state = state
    if (snapshot) {
      state.workingSet = [...snapshot.workingSet]
      state.usage = { ...snapshot.usage }
      state.cost = { ...snapshot.cost }
      state.todos = [...snapshot.todos]
      state.checkpoints = [...snapshot.checkpoints]
      state.checks = [...snapshot.checks]
      state.decisionTraces = [...snapshot.decisionTraces]
    }

    // Fail before anything is journaled when the model cannot be used (unknown ref, missing key).
    // An embedder's factory gets the reference as given, even one the model catalog does not know.
    const ref = parseModelRef(state.modelRef)
    const requester = { sessionId, projectRoot }
    const client = ref.ok
      ? this.#clientFactory.createClient(
          state.modelRef,
          providerSettingsOf(settings, ref.ref.provider),
          requester,
        )
      : this.#injectedFactory
        ? this.#clientFactory.createClient(state.modelRef, undefined, requester)
        : ({ ok: false, error: ref.error } as const)
    if (!client.ok) {
      await log.close().catch(() => {})
      if (resumeId === undefined) await this.store.delete(sessionId).catch(() => {})
      throw new EngineError('modelUnavailable', client.error)
    }
    // Start loading the provider SDK now: it overlaps with the file reads of session assembly.
    void client.client.warm?.().catch(() => {})

    const hub = new EventHub(sessionId, this.#onEvent)
    const { session, core, view } = await assembleSession({
      sessionId,
      projectRoot,
      ...(cwd !== undefined ? { cwd } : {}),
      paths: this.paths,
      env: this.#env,
      store: this.store,
      log,
      loaded,
      state,
      hub,
      clientFactory: this.#clientFactory,
      injectedFactory: this.#injectedFactory,
      client: { client: client.client, model: client.model },
      resumed: snapshot !== undefined,
      ...(replayProblems.length > 0 ? { replayProblems } : {}),
      trusted,
      newId,
      reloadSettings: async () => {
        const trustedNow = await this.#trust.isTrusted(projectRoot)
        return {
          loaded: await this.#loadSettings(projectRoot, trustedNow, sessionSettings),
          trusted: trustedNow,
        }
      },
      trust: () => this.#trust.trust(projectRoot),
      ...(options.mcpServers !== undefined ? { mcpServers: options.mcpServers } : {}),
      ...(options.waitForMcp === true ? { waitForMcp: true } : {}),
      definedTools: tools.tools.map(definedToolAsTool),
      ...(agents.length > 0 ? { codeAgents: agents } : {}),
      hookCallbacks: mergeHookCallbacks(this.#hooks, options.hooks),
      ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
      ...(this.#isolated ? { isolated: true } : {}),
      ...(canUseTool ? { canUseTool: { callback: canUseTool, timeoutMs: this.#canUseToolTimeoutMs } } : {}),
      ...(this.#sandboxBackend ? { sandboxBackend: this.#sandboxBackend } : {}),
      ...(repoMap !== undefined ? { repoMap } : {}),
    })
    // The mode and model in effect are journaled so a resume continues with them.
    if (snapshot?.mode !== state.mode) await core.journal({ type: 'modeChanged', mode: state.mode })
    if (snapshot?.model !== state.modelRef)
      await core.journal({ type: 'modelChanged', model: state.modelRef })
    cores.set(session, core)
    views.set(session, view)
    this.#sessions.add(session)
    session.onClose(() => this.#sessions.delete(session))
    return session
  }

  /** Closes every session (cancelling running turns, flushing journals). */
  async shutdown(): Promise<void> {
    await Promise.all([...this.#sessions].map((session) => session.close()))
    this.#sessions.clear()
    // What finished commands left running in their groups (`server &`) ends with the engine.
    await killSupervisedGroups()
    if (this.#tempDataDir !== undefined) await rm(this.#tempDataDir, { recursive: true, force: true })
  }

  /** The full id for `resume` / `fork` (a unique prefix is enough). */
  async #sessionIdOf(idOrPrefix: string): Promise<string> {
    const resolved = await this.resolveSessionId(idOrPrefix)
    if (!resolved.ok) throw new EngineError('sessionNotFound', resolved.message)
    return resolved.id
  }

  async #fork(fork: { sessionId: string; uptoRecordId?: string }, newSessionId?: string): Promise<string> {
    let upto = fork.uptoRecordId
    if (upto === undefined) {
      const replayed = await this.store.replay(fork.sessionId)
      if (!replayed.ok) throw new EngineError('sessionNotFound', replayed.error.message)
      upto = replayed.value.snapshot.lastRecordId
      if (upto === undefined)
        throw new EngineError('sessionNotFound', `Session ${fork.sessionId} has no records to fork.`)
    }
    const forked = await this.store.fork(fork.sessionId, {
      uptoRecordId: upto,
      ...(newSessionId !== undefined ? { newSessionId } : {}),
    })
    if (!forked.ok)
      throw new EngineError(
        idProblem(forked.error.code) ? 'invalidOption' : 'sessionNotFound',
        forked.error.message,
      )
    return forked.value
  }
}

// The cores of open sessions, for the engine's own tests; never reachable from the public handle.
const cores = new WeakMap<Session, SessionCore>()
// What each session offers now (tools, MCP servers), for the engine's own adapters.
const views = new WeakMap<Session, SessionView>()

/** What a session this process opened offers now (engine-internal; not exported from the package). */
export function viewOf(session: Session): SessionView {
  const view = views.get(session)
  if (!view) throw new Error(`session ${session.id} was not opened by an Engine in this process`)
  return view
}

/** The core behind a session this process opened (engine-internal; not exported from the package). */
export function coreOf(session: Session): SessionCore {
  const core = cores.get(session)
  if (!core) throw new Error(`session ${session.id} was not opened by an Engine in this process`)
  return core
}

/** Whether the store refused a chosen session id (taken or malformed): the caller's option to fix. */
function idProblem(code: string): boolean {
  return code === 'alreadyExists' || code === 'invalidId'
}

/** A settings object given in code as a layer, or the `EngineError` naming what is wrong. */
function checkedSettings(value: unknown, source: string): LoadedLayer {
  const layer = codeSettingsLayer(value, source)
  if (!layer.ok) throw new EngineError('invalidOption', layer.message)
  return layer.layer
}

async function canonicalRoot(projectRoot: string): Promise<string> {
  const absolute = resolve(projectRoot)
  return realpath(absolute).catch(() => absolute)
}
