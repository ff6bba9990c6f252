import { ProcessScope, type SandboxBackend } from '@z-engine/host'
import { reminderText } from '@z-engine/prompts'
import { type PermissionMode, PROTOCOL_VERSION } from '@z-engine/protocol'
import { type SessionLog, type SessionStore, sessionPaths } from '@z-engine/store'
import type { Ports, Tool } from '@z-engine/tools'
import type { CanUseTool } from '../batch/can-use-tool.js'
import { checksToSkip } from '../decisions/seams/check-select.js'
import { ruleLayersOf } from '../gate/policy-gate.js'
import { SessionGate } from '../gate/session-gate.js'
import { ShellJobs } from '../jobs/shell-jobs.js'
import { LspManager } from '../lsp/lsp-manager.js'
import { createAgentMcp } from '../mcp/agent-mcp.js'
import type { InProcessMcpServer } from '../mcp/mcp-manager.js'
import { attachResourceMentions } from '../mcp/resource-mentions.js'
import type { McpServerInfo } from '../mcp/server-connection.js'
import { createSessionMcp, sessionMcpSpecs } from '../mcp/session-mcp.js'
import type { ClientFactory } from '../model/client-factory.js'
import { createSideModelPort } from '../model/side-model.js'
import type { ModelClient } from '../model/types.js'
import { createOrchestration } from '../orchestration/create-orchestration.js'
import { RepoMapService } from '../repo-map/repo-map-service.js'
import { repoMapCacheFile } from '../repo-map/repo-map-store.js'
import type { EventHub } from '../session/event-hub.js'
import { createHookPort } from '../session/hook-port.js'
import { createInteractionPort } from '../session/interaction-port.js'
import type { SessionServices } from '../session/services.js'
import { SessionActor } from '../session/session.js'
import { SessionCore } from '../session/session-core.js'
import type { Session } from '../session/session-types.js'
import type { SessionState } from '../session/state.js'
import { WorkspaceFingerprint } from '../verification/fingerprint.js'
import { SessionVerification } from '../verification/session-verification.js'
import { createStopChecks } from '../verification/stop-checks.js'
import { agentMentionReminders } from '../workspace/commands/agent-mentions.js'
import { withCodeAgents } from '../workspace/definitions/code-agents.js'
import { loadAgentDefinitions, loadSkillDefinitions } from '../workspace/definitions/load.js'
import { createSkillPort } from '../workspace/definitions/skill-port.js'
import type { AgentDefinition } from '../workspace/definitions/types.js'
import type { EnginePaths } from '../workspace/engine-paths.js'
import type { HookCallbacks } from '../workspace/hooks/hook-callbacks.js'
import { withHookEnv } from '../workspace/hooks/types.js'
import { loadInstructions } from '../workspace/instructions/instructions-load.js'
import { sessionStartLoads } from '../workspace/instructions/loaded-hook-fields.js'
import { loadRules } from '../workspace/instructions/rules-load.js'
import { pluginDefinitionSources, pluginEnvironment } from '../workspace/plugins/active.js'
import { changedSettingsFiles } from '../workspace/settings/changed-files.js'
import type { LoadedSettings } from '../workspace/settings/load-settings.js'
import { createCheckpointPort } from './checkpoint-port.js'
import { CommandRunner } from './command-runner.js'
import { ContextTracker, touchedPaths } from './context-tracker.js'
import { takeEnvironmentSnapshot } from './environment.js'
import { hookSandboxRequest } from './hook-confinement.js'
import { endTurnsOnJournalFailure } from './journal-failure.js'
import { SessionModels } from './model-port.js'
import { openDecisionHub } from './open-decision-hub.js'
import { redactingLog, redactingTool, sessionRedactor } from './redaction.js'
import { rewindSession, undoRewind } from './rewind.js'
import { serverConfiner } from './server-confiner.js'
import { SessionCompaction } from './session-compaction.js'
import { DeferredSessionSandbox } from './session-sandbox.js'
import { renderSkillsList } from './skills-list.js'
import { SessionSystemPrompt, type SystemPromptOption } from './system-prompt.js'
import { createToolContextFactory } from './tool-context.js'
import { buildToolset, newPageCache } from './toolset.js'
import { runUserShell } from './user-shell.js'

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

/**
 * The session's repository map per `context.repo_map`, its build started: `openSession` calls this
 * as soon as the settings are read, so the walk and the outline cache's read overlap with opening
 * the journal and assembling the session instead of delaying the first request (issue 17). A map
 * that misses the first request reaches the model through `remind` (a reminder).
 */
export function startRepoMap(
  settings: LoadedSettings['settings'],
  projectRoot: string,
  dataDir: string,
  remind: (text: string) => void,
): RepoMapService | undefined {
  if (!settings.context.repo_map) return undefined
  const repoMap = new RepoMapService({
    root: projectRoot,
    maxChars: settings.context.repo_map_chars,
    cacheFile: repoMapCacheFile(dataDir, projectRoot),
    onLate: (map) => remind(reminderText('repoMap', { map })),
  })
  repoMap.start()
  return repoMap
}

/** What a session offers right now, for adapters that describe it (the Claude Agent SDK init message). */
export interface SessionView {
  /** The tools the model is offered now, in order (built-ins, the embedder's, then MCP tools). */
  toolNames(): string[]
  mcpServers(): McpServerInfo[]
  /** The `/` command names the session resolves now, without the slash. */
  slashCommands(): Promise<string[]>
  /** The subagent types the Agent tool offers (built-ins and definitions). */
  agentNames(): string[]
  /** The skills' names. */
  skillNames(): string[]
  /** The enabled plugins: `name` as `<plugin>@<marketplace>`, `path` their folder. */
  plugins(): Array<{ name: string; path: string }>
}

/**
 * Wires a session's services from the real packages: policy gate, hooks, shadow checkpoints, model
 * clients, tools with their context and ports, the system prompt and compaction. Publishes
 * `sessionOpened`, then settings notices and `trustRequired` when the project withholds categories.
 */
export async function assembleSession(
  input: AssembleInput,
): Promise<{ session: Session; core: SessionCore; view: SessionView }> {
  const { projectRoot, paths, env, state, hub } = input
  let loaded = input.loaded
  // A reload (settings edited, workspace trusted, plugin installed) replaces these; see `reload`.
  let trusted = input.trusted
  const settings = loaded.settings
  const userFiles = input.isolated ? { userFiles: false } : {}
  const notice = (level: 'info' | 'warning' | 'error', message: string, code?: string) =>
    hub.publish({ type: 'notice', level, message, ...(code !== undefined ? { code } : {}) })
  const redactor = sessionRedactor(env, settings)
  const log = endTurnsOnJournalFailure(redactingLog(input.log, redactor), (message) =>
    notice('error', `${message}. The turn stops here; nothing more is recorded.`, 'journal_failed'),
  )

  // Shell commands the policy auto-allows run confined whenever a backend exists (spec 000 "Sandbox").
  // The backend probe is not awaited here (issue 17): it starts once the first request is out, or
  // when a command or a shell decision needs it first, and says so once when there is none.
  const sandbox: DeferredSessionSandbox = new DeferredSessionSandbox(
    {
      settings,
      home: paths.home,
      env,
      ...(input.sandboxBackend ? { backend: input.sandboxBackend } : {}),
      // The engine's own folders and what Read deny rules name are masked in every confined view.
      engineDirs: [paths.configDir, paths.dataDir],
      deniedReadPaths: (roots): Promise<string[]> => gate.deniedReadPaths(roots),
    },
    (opened) => {
      if (opened.warning !== undefined) notice('warning', opened.warning, 'sandbox_unavailable')
    },
  )
  // Every process the session starts (Bash, jobs, hooks, `!` lines) is killed when it closes.
  const processes = new ProcessScope()
  // Programs the engine starts itself (language servers, MCP stdio servers) run in the same view
  // as a write-confined command whenever a backend exists (issue 34).
  const confinement = {
    sandbox,
    projectRoot,
    home: paths.home,
    additionalDirectories: () => gate.additionalDirectories,
  }
  const gate: SessionGate = new SessionGate({
    projectRoot,
    home: paths.home,
    configDir: paths.configDir,
    settings,
    sandbox: () => sandbox.facts(),
    ruleLayers: ruleLayersOf(loaded.layers),
    trusted: input.trusted,
    onNotice: notice,
  })
  const models = new SessionModels(input.clientFactory, () => settings, {
    sessionId: input.sessionId,
    projectRoot,
    injected: input.injectedFactory === true,
  })
  models.adopt(state.modelRef, input.client.client, input.client.model)
  const spill = async (content: string, hint: string) => {
    const written = await input.store.writeArtifact(input.sessionId, content, 'txt')
    if (!written.ok) throw new Error(`${hint}: ${written.error.message}`)
    return written.value
  }
  const ports: Ports = {}
  // WebFetch answers its prompt with the fast model; without one it returns the page (and says so).
  const sideModel = createSideModelPort(models, settings.model.fast)
  if (sideModel !== undefined) ports.sideModel = sideModel
  let pluginSources = pluginDefinitionSources(loaded.plugins)
  // Where instructions and rules are read from; definitions add the enabled plugins' folders.
  const memoryRoots = () => ({
    projectRoot,
    home: paths.home,
    configDir: paths.configDir,
    compatClaude: settings.compat.claude,
    ...userFiles,
    // Instruction imports never load a file a Read deny rule covers (issue 34).
    isReadDenied: (path: string) => gate.readDenied(path),
  })
  const definitionRoots = () => ({ ...memoryRoots(), plugins: pluginSources })
  const toolContext = createToolContextFactory({
    sessionId: input.sessionId,
    projectRoot,
    home: paths.home,
    settings,
    baseEnv: env,
    vision: () => models.info(state.modelRef).vision,
    additionalDirectories: () => gate.additionalDirectories,
    spill,
    ports,
    scope: processes,
    isReadDenied: (path) =>
      gate.decide('Read', { type: 'read', paths: [path] }, state.mode).decision === 'deny',
    sandbox,
  })
  const jobs = new ShellJobs({
    env: toolContext.env,
    sandbox,
    scope: processes,
    onUpdate: (job) => {
      hub.publish({ type: 'jobUpdated', job })
      if (job.status !== 'running') {
        state.reminders.push(
          reminderText('jobFinished', { jobId: job.id, description: job.description, status: job.status }),
        )
      }
    },
  })
  ports.jobs = jobs
  // MCP servers start in the background once the session is open (spec 000 "MCP and language servers").
  const mcp = createSessionMcp({
    loaded,
    trusted: input.trusted,
    projectRoot,
    env,
    childEnv: toolContext.env,
    ...(input.mcpServers !== undefined ? { inProcess: input.mcpServers } : {}),
    confine: serverConfiner(confinement, 'mcp'),
    hooks: {
      notice: (level, message) => notice(level, message, 'mcp'),
      remind: (text) => state.reminders.push(text),
    },
  })
  if (mcp.configured) ports.mcp = mcp
  // Language servers start lazily per file type; LSP is offered when one of them is installed.
  const lsp = settings.lsp.enabled
    ? new LspManager({
        root: projectRoot,
        settings: settings.lsp,
        env: toolContext.env,
        scope: processes,
        // Issue 34: only in a trusted workspace, and inside the session's sandbox like Bash.
        trusted: () => trusted,
        confine: serverConfiner(confinement, 'lsp'),
        notice: (level, message) => notice(level, message, 'lsp'),
      })
    : undefined
  if (lsp?.anyInstalled()) ports.lsp = lsp
  // Checks are discovered in the background (nothing runs); Verify is offered unless mode is off.
  const verification = new SessionVerification({
    projectRoot,
    settings,
    fingerprint: new WorkspaceFingerprint(projectRoot, toolContext.env),
    record: (record) =>
      core.commit(
        { type: 'checkRecorded', record },
        state.activeTurn !== undefined ? { turnId: state.activeTurn.id } : {},
      ),
    spill,
    newId: input.newId,
    replayed: state.checks,
  })
  verification.start()
  if (settings.verification.mode !== 'off') ports.checks = verification
  const checksAtStop = createStopChecks({
    verification,
    settings,
    get trusted() {
      return trusted
    },
    runner: (signal) => (command, options) =>
      toolContext.shell.run(command, {
        cwd: options.cwd,
        timeoutMs: options.timeoutMs,
        signal,
        // A check runs the project's own code (its test script): confined like an auto-allowed
        // build whenever a backend exists (issue 34).
        sandbox: {
          root: projectRoot,
          additionalDirectories: [...gate.additionalDirectories],
          granted: 'write',
        },
        ...(options.onOutput !== undefined ? { onOutput: options.onOutput } : {}),
      }),
    denied: (check) =>
      gate.decide('Verify', { type: 'execute', command: check.command, cwd: check.cwd }, state.mode)
        .decision === 'deny',
    notice: (level, message) => notice(level, message, 'verification'),
    select: (checks, signal) => {
      const records = verification.records()
      const lastFailed = (id: string) => records.findLast((record) => record.checkId === id)?.passed === false
      return checksToSkip(
        core.services.decisions,
        checks.map((check) => ({ id: check.id, command: check.command, lastFailed: lastFailed(check.id) })),
        [],
        signal,
      )
    },
  })

  const [instructions, environment, loadedAgents, loadedRules, loadedSkills] = await Promise.all([
    loadInstructions(memoryRoots()),
    takeEnvironmentSnapshot({
      projectRoot,
      cwd: input.cwd ?? projectRoot,
      modelRef: state.modelRef,
      env,
      additionalDirectories: gate.additionalDirectories,
      now: new Date(),
    }),
    loadAgentDefinitions(definitionRoots()),
    loadRules(memoryRoots()),
    loadSkillDefinitions(definitionRoots()),
  ])
  let agents = withCodeAgents(loadedAgents, input.codeAgents)
  let rules = loadedRules
  let skills = loadedSkills
  for (const error of rules.errors) notice('warning', error, 'rules')
  for (const error of [...agents.errors, ...skills.errors])
    notice('warning', `${error.path}: ${error.message}`, 'definitions')
  const skillPort = createSkillPort(() => skills.definitions)
  if (skills.definitions.length > 0) ports.skills = skillPort
  const repoMap = input.repoMap
  const system = new SessionSystemPrompt({
    environment,
    instructions,
    alwaysRules: rules.rules.filter((rule) => rule.alwaysApply),
    skills: renderSkillsList(skills.definitions),
    repoMap,
    ...(input.systemPrompt !== undefined ? { custom: input.systemPrompt } : {}),
  })
  const contextTracker = new ContextTracker({
    root: projectRoot,
    home: paths.home,
    compatClaude: settings.compat.claude,
    isReadDenied: (path) => gate.readDenied(path),
    rules: rules.rules,
    repoMap,
    onLoaded: async (load) => hooks.instructionsLoaded?.(load),
  })

  const hooks = createHookPort({
    config: () => loaded.hooks,
    // An agent's frontmatter hooks run while it works; a project's agents' only once it is trusted,
    // as the project's settings hooks.
    agentHooks: (agentType) => {
      const definition = agents.definitions.find((agent) => agent.name === agentType)
      if (definition?.hookConfig === undefined) return undefined
      const fromProject = definition.source.layer === 'project' || definition.source.layer === 'projectClaude'
      if (fromProject && !trusted) return undefined
      // A plugin's agent's hooks get the plugin's folders, as its settings hooks do.
      const plugin = loaded.plugins.find((active) => active.id === definition.plugin)
      return plugin === undefined
        ? definition.hookConfig
        : withHookEnv(definition.hookConfig, pluginEnvironment(plugin.contents.root, plugin.dataDir))
    },
    ...(input.hookCallbacks ? { callbacks: input.hookCallbacks } : {}),
    sessionId: input.sessionId,
    transcriptPath: sessionPaths(paths.dataDir, input.sessionId).log,
    projectDir: projectRoot,
    // Hooks are child processes like any command: the allowlisted environment, never the engine's keys.
    env: toolContext.env,
    // Every hook runs confined whenever a backend exists (issue 34), whoever defined it: the
    // project's, the user's, a plugin's and an agent's (hook-confinement.ts says what each sees).
    sandboxFor: (hook) =>
      sandbox.prepare(
        hookSandboxRequest(hook, {
          projectRoot,
          home: paths.home,
          additionalDirectories: gate.additionalDirectories,
        }),
      ),
    onNotice: (level, message) => notice(level, message),
    scope: processes,
    home: paths.home,
    mode: () => state.mode,
  })
  const services: SessionServices = {
    log,
    gate,
    hooks,
    checkpoints: createCheckpointPort({
      dataDir: paths.dataDir,
      projectRoot,
      env,
      newId: input.newId,
      onNotice: notice,
      home: paths.home,
      maxFiles: settings.checkpoints.max_files,
      maxMb: settings.checkpoints.max_mb,
      readDenied: (path) => gate.readDenied(path),
    }),
    models,
    toolCtx: (params) => toolContext.build(params),
    system: () => system.sections(),
    // A prompt's `@server:uri` mentions attach MCP resources; `@agent-<name>` of a known agent type
    // adds a reminder to use that agent (spec 000 "Commands", for ordinary messages too).
    promptAttachments: async (text: string, signal: AbortSignal) => {
      const attached = mcp.configured
        ? await attachResourceMentions(
            text,
            {
              servers: () => mcp.servers().map((server) => server.name),
              denied: (server) =>
                gate.decide(
                  'ReadMcpResource',
                  { type: 'mcpCall', server, tool: 'ReadMcpResource', readOnly: true, resource: true },
                  state.mode,
                ).decision === 'deny',
              read: async (server, uri, readSignal) => {
                await mcp.started(server)
                return mcp.readResource(server, uri, readSignal)
              },
            },
            signal,
          )
        : { blocks: [], notices: [] }
      const types = ports.agents?.catalog().map((type) => type.name) ?? []
      const reminders = agentMentionReminders(text, types).map((reminder) => ({
        type: 'text' as const,
        text: reminder,
      }))
      return { blocks: [...attached.blocks, ...reminders], notices: attached.notices }
    },
    turnReminders: async () => {
      const changed = await toolContext.changedSinceRead('main')
      return changed.length === 0
        ? []
        : [reminderText('filesChanged', { files: changed.map((path) => `- ${path}`).join('\n') })]
    },
    // Bound lazily: the session's compaction is built further down from these services.
    agentRelief: (target) => compaction.agentRelief(target),
    agentContext: (root) => {
      const tracker = new ContextTracker({
        root,
        home: paths.home,
        compatClaude: settings.compat.claude,
        isReadDenied: (path) => gate.readDenied(path),
        rules: rules.rules,
        repoMap: undefined,
      })
      return (calls, changedFiles, cwd) => tracker.afterBatch(touchedPaths(calls, changedFiles, cwd))
    },
    afterBatch: (calls, changedFiles, cwd) =>
      contextTracker.afterBatch(touchedPaths(calls, changedFiles, cwd)),
    home: paths.home,
    costOf: (usage, modelRef) => models.costOf(usage, modelRef),
    verification: {
      mark: () => verification.mark(),
      noteChange: () => verification.noteChange(),
      badge: (mark) => verification.badge(mark),
      atStop: (mark, used, signal) => checksAtStop(mark, used, signal),
      known: () => (ports.checks === undefined ? undefined : verification.known()),
      noteShellRun: async (run) => {
        if (ports.checks !== undefined) await verification.noteShellRun(run)
      },
    },
    ...(input.canUseTool ? { canUseTool: input.canUseTool } : {}),
  }
  // The core first: everything below that works for the session takes it, not the handle.
  const core = new SessionCore({
    id: input.sessionId,
    projectRoot,
    ...(input.cwd !== undefined ? { cwd: input.cwd } : {}),
    state,
    services,
    hub,
    limits: {
      maxTurns: settings.agents.max_turns,
      costCapUsd: settings.agents.session_cost_cap_usd,
      maxOutputTokens: settings.model.max_output_tokens ?? 32_000,
      maxConcurrency: settings.agents.max_concurrent,
    },
    newId: input.newId,
  })
  const decisions = openDecisionHub(core, settings)
  if (decisions) services.decisions = decisions
  // Calls get an interaction port bound to their call and turn; this one only marks the service on.
  ports.interaction = createInteractionPort(core, { toolUseId: 'session' })
  // Subagents and agent jobs (spec 003); the Agent tool is offered only when nesting is allowed.
  const orchestration = createOrchestration({
    session: core,
    settings,
    projectRoot,
    definitions: () => agents.definitions,
    tools: () => currentTools(),
    agentMcp: (definition) =>
      createAgentMcp(definition, {
        servers: loaded.settings.mcp.servers,
        sessionServers: mcp.servers().map((server) => server.name),
        trusted,
        projectRoot,
        env,
        childEnv: toolContext.env,
        // An agent's own servers are confined like the session's (issue 34).
        confine: serverConfiner(confinement, 'mcp'),
        notice: (level, message) => notice(level, message, 'mcp'),
      }),
    environment,
    ports,
    transcript: {
      replay: async (agentId) => {
        const replayed = await input.store.replayAgent(input.sessionId, agentId)
        return replayed.ok ? replayed.value.snapshot.workingSet : undefined
      },
      agents: async () => {
        const replayed = await input.store.replay(input.sessionId)
        return replayed.ok ? replayed.value.snapshot.agents : []
      },
    },
    git: { env },
    shellJobs: jobs,
  })
  ports.jobs = orchestration.jobs
  if (settings.agents.max_depth > 0) ports.agents = orchestration.agents
  const pageCache = newPageCache()
  const buildBuiltinTools = (): Tool[] =>
    buildToolset({ settings, ports, env, pageCache, onNotice: notice })
      .concat(input.definedTools ?? [])
      .map((tool) => redactingTool(tool, redactor))
  let builtinTools = buildBuiltinTools()
  // The built-ins and the embedder's tools, then the MCP tools offered so far; a new array only when
  // the MCP list changed (so the tool list, and the prompt cache, stay stable).
  let mcpSeen: readonly Tool[] = []
  let tools: Tool[] = builtinTools
  let toolsStale = false
  const currentTools = (): Tool[] => {
    const offered = mcp.tools()
    if (offered !== mcpSeen || toolsStale) {
      toolsStale = false
      mcpSeen = offered
      tools = [...builtinTools, ...offered.map((tool) => redactingTool(tool, redactor))]
    }
    return tools
  }
  const compaction = new SessionCompaction({
    session: core,
    get tools() {
      return currentTools()
    },
    settings,
    models,
    system,
    spill,
    preCompact: (trigger, focus) => hooks.preCompact(trigger, focus),
    postCompact: async (trigger, summary) => hooks.postCompact?.(trigger, summary),
  })

  const commands = new CommandRunner({
    session: core,
    get tools() {
      return currentTools()
    },
    settings,
    projectRoot,
    home: paths.home,
    configDir: paths.configDir,
    ...userFiles,
    get plugins() {
      return pluginSources
    },
    dataDir: paths.dataDir,
    get trusted() {
      return trusted
    },
    get pluginSettings() {
      return loaded.settings
    },
    gate,
    models,
    system,
    get agents() {
      return agents.definitions
    },
    reload: () => reload(false),
    baseEnv: env,
    mcp,
    sandbox,
    scope: processes,
    verification,
  })

  /**
   * A settings reload (`reloadSettings`, `trustWorkspace`, a plugin installed or toggled from the
   * chat): settings and trust are read again, then rules, hooks, instructions, agents, skills,
   * commands, plugins and MCP servers follow them. The mode follows only when the user has not
   * changed it in this session; it is returned for the actor to apply.
   */
  async function reload(trustNow: boolean): Promise<{ mode?: PermissionMode }> {
    if (trustNow) {
      const recorded = await input.trust()
      if (!recorded.ok) notice('warning', `Could not record trust: ${recorded.error}`, 'trust')
    }
    const previous = loaded
    const read = await input.reloadSettings()
    // ConfigChange hooks (the session's, before the change) may keep the settings it has; trusting
    // the workspace is the user's own decision, which no hook undoes.
    const changes = trustNow ? [] : changedSettingsFiles(previous.readLayers, read.loaded.readLayers)
    for (const change of changes) {
      const verdict = await hooks.configChange?.(change)
      if (verdict?.blocked === undefined) continue
      notice(
        'warning',
        `Settings not reloaded: a ConfigChange hook kept ${change.filePath ?? change.source} out: ${verdict.blocked}`,
        'config_change_blocked',
      )
      return {}
    }
    loaded = read.loaded
    trusted = read.trusted
    gate.setTrusted(trusted)
    gate.setRuleLayers(ruleLayersOf(loaded.layers))
    for (const directory of loaded.settings.permissions.additional_directories) gate.addDirectory(directory)
    for (const settingsNotice of loaded.notices)
      notice(settingsNotice.severity, settingsNotice.message, 'settings')
    pluginSources = pluginDefinitionSources(loaded.plugins)
    const [reloadedInstructions, reloadedAgents, reloadedRules, reloadedSkills] = await Promise.all([
      loadInstructions(memoryRoots()),
      loadAgentDefinitions(definitionRoots()),
      loadRules(memoryRoots()),
      loadSkillDefinitions(definitionRoots()),
    ])
    agents = withCodeAgents(reloadedAgents, input.codeAgents)
    rules = reloadedRules
    skills = reloadedSkills
    for (const error of rules.errors) notice('warning', error, 'rules')
    for (const error of [...agents.errors, ...skills.errors])
      notice('warning', `${error.path}: ${error.message}`, 'definitions')
    contextTracker.setRules(rules.rules)
    if (skills.definitions.length > 0) ports.skills = skillPort
    else delete ports.skills
    commands.reset()
    // Servers the new settings add (or trust releases) start now; removed ones are killed.
    const changed = await mcp.reconcile(
      sessionMcpSpecs({
        loaded,
        trusted,
        projectRoot,
        env,
        hooks: { notice: (level, message) => notice(level, message, 'mcp'), remind: () => {} },
      }),
    )
    if (mcp.configured) ports.mcp = mcp
    for (const name of changed.added) notice('info', `MCP server ${name} is starting.`, 'mcp')
    for (const name of changed.restarted)
      notice('info', `MCP server ${name} restarts with its new settings.`, 'mcp')
    for (const name of changed.removed) notice('info', `MCP server ${name} was stopped.`, 'mcp')
    // The Skill and Agent tools describe what is loaded; the toolset is rebuilt once, here.
    builtinTools = buildBuiltinTools()
    toolsStale = true
    system.invalidate({
      instructions: reloadedInstructions,
      alwaysRules: rules.rules.filter((rule) => rule.alwaysApply),
      skills: renderSkillsList(skills.definitions),
    })
    if (loaded.trustRequired.length > 0) {
      hub.publish({ type: 'trustRequired', projectRoot, categories: loaded.trustRequired })
    }
    notice('info', trustNow ? 'Workspace trusted; its settings now apply.' : 'Settings reloaded.', 'settings')
    const before = previous.settings.permissions.mode
    const after = loaded.settings.permissions.mode
    return after !== before && state.mode === before ? { mode: after } : {}
  }

  const session: Session = new SessionActor({
    core,
    hub,
    agent: {
      get tools() {
        return currentTools()
      },
      relievePressure: (workingSet, force, reported) => compaction.relieve(workingSet, force, reported),
    },
    extensions: {
      compaction,
      gate,
      jobs: orchestration.jobs,
      agentChanges: orchestration.agentChanges,
      system,
      runCommand: (name, args) => commands.run(name, args),
      runShell: async (command) => {
        // The user's own `!` line: confined when `[shell.sandbox]` is on.
        const result = await runUserShell(command, {
          cwd: projectRoot,
          settings,
          baseEnv: env,
          sandbox,
          request: { root: projectRoot, additionalDirectories: gate.additionalDirectories },
          scope: processes,
        })
        return { output: redactor.redact(result.output.trimEnd()), exitCode: result.exitCode }
      },
      reload,
      undoRewind: () =>
        undoRewind(input.sessionId, services.checkpoints, (level, message, code) =>
          notice(level, message, code),
        ),
      rewind: (messageId, scope, rewindOptions) =>
        rewindSession(
          {
            sessionId: input.sessionId,
            journal: (event) => core.journal(event),
            log,
            store: input.store,
            state,
            notice: (level, message, code) => notice(level, message, code),
          },
          services.checkpoints,
          messageId,
          scope,
          rewindOptions,
        ),
      replayWorkingSet: async () => {
        await log.sync()
        const replayed = await input.store.replay(input.sessionId)
        if (!replayed.ok) throw new Error(`The full history could not be reloaded: ${replayed.error.message}`)
        return [...replayed.value.snapshot.workingSet]
      },
      ...(input.resumed
        ? {}
        : {
            discardIfEmpty: async () => {
              await input.store.delete(input.sessionId)
            },
          }),
      dispose: async () => {
        await repoMap?.close()
        await mcp.close()
        await lsp?.close()
        await orchestration.shutdown()
        await jobs.shutdown()
        // What Bash commands, `!` lines and hooks left running (`server &`) ends with the session.
        await processes.killAll()
        await sandbox.dispose()
        await models.close()
      },
    },
  })

  hub.publish({
    type: 'sessionOpened',
    sessionId: input.sessionId,
    projectRoot,
    mode: state.mode,
    model: state.modelRef,
    resumed: input.resumed,
    protocolVersion: PROTOCOL_VERSION,
    ...(state.title !== undefined ? { title: state.title } : {}),
  })
  for (const settingsNotice of loaded.notices)
    notice(settingsNotice.severity, settingsNotice.message, 'settings')
  const problems = input.replayProblems ?? []
  if (problems.length > 0)
    notice(
      'warning',
      `The session log has ${problems.length} line(s) that could not be read; the conversation continues without them: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? `; and ${problems.length - 3} more ('z-engine sessions show ${input.sessionId}' lists them)` : ''}.`,
      'replay',
    )
  const unparsed = new Set(gate.unparsedRules.map((entry) => entry.error))
  for (const error of gate.ruleErrors) {
    // A broken deny or ask rule fails closed (what it may cover asks); a broken allow rule is ignored.
    const effect = unparsed.has(error) ? 'until it is fixed, the calls it may cover ask' : 'it is ignored'
    notice(
      'warning',
      `Permission rule ${error.text} from ${error.source} cannot be read (${error.message}); ${effect}`,
      'rule',
    )
  }
  for (const warning of instructions.warnings) notice('warning', warning, 'instructions')
  if (loaded.trustRequired.length > 0) {
    hub.publish({ type: 'trustRequired', projectRoot, categories: loaded.trustRequired })
  }
  mcp.start()
  if (input.waitForMcp) await mcp.settled()
  // Claude Code reports each instruction file as it enters the context, before SessionStart.
  for (const load of sessionStartLoads(instructions.files, projectRoot, paths.home))
    await hooks.instructionsLoaded?.(load)
  const started = await hooks.sessionStart(input.resumed ? 'resume' : 'startup')
  if (started.additionalContext) state.reminders.push(started.additionalContext)
  const view: SessionView = {
    toolNames: () => currentTools().map((tool) => tool.name),
    mcpServers: () => mcp.servers(),
    slashCommands: async () => (await commands.catalog()).entries.map((entry) => entry.name),
    agentNames: () =>
      ports.agents?.catalog().map((type) => type.name) ?? agents.definitions.map((agent) => agent.name),
    skillNames: () => skills.definitions.map((skill) => skill.name),
    plugins: () => loaded.plugins.map((plugin) => ({ name: plugin.id, path: plugin.contents.root })),
  }
  return { session, core, view }
}
