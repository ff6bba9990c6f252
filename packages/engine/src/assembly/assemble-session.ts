import { createInteractionPort } from '../session/interaction-port.js'
import type { HookPort } from '../session/services.js'
import { SessionActor } from '../session/session.js'
import type { SessionCore } from '../session/session-core.js'
import type { Session } from '../session/session-types.js'
import { createSkillPort } from '../workspace/definitions/skill-port.js'
import { fileChangedPaths, watchFiles } from '../workspace/hooks/file-changed-watch.js'
import { sessionStartLoads } from '../workspace/instructions/loaded-hook-fields.js'
import type { AssembleInput } from './assemble-input.js'
import { takeEnvironmentSnapshot } from './environment.js'
import { endTurnsOnJournalFailure } from './journal-failure.js'
import { openDecisionHub } from './open-decision-hub.js'
import { openSessionCore, openSessionModels } from './open-session-core.js'
import { redactingLog, sessionRedactor } from './redaction.js'
import { createSessionChecks } from './session-checks.js'
import { createSessionCommands } from './session-commands.js'
import { SessionCompaction } from './session-compaction.js'
import { sessionExtensions } from './session-extensions.js'
import { createSessionGuard } from './session-guard.js'
import { createSessionHooks } from './session-hooks.js'
import { announceSessionOpened, sessionNotifier } from './session-notices.js'
import { createSessionOrchestration } from './session-orchestration.js'
import { createSessionPrompt } from './session-prompt.js'
import { createReload } from './session-reload.js'
import { buildSessionServices } from './session-services.js'
import { createToolServices } from './session-tool-services.js'
import { SessionTools } from './session-tools.js'
import { type SessionView, sessionView } from './session-view.js'
import { SessionWorkspace } from './session-workspace.js'

/**
 * Wires a session's services from the real packages: the sandbox and the gate, models, the layered
 * folders, the tools and their services, checks, hooks, the system prompt, subagents, compaction,
 * commands and reload. Publishes `sessionOpened`, then settings notices and `trustRequired` when
 * the project withholds categories.
 */
export async function assembleSession(
  input: AssembleInput,
): Promise<{ session: Session; core: SessionCore; view: SessionView }> {
  const { projectRoot, paths, env, state, hub } = input
  const settings = input.loaded.settings
  const notice = sessionNotifier(hub)
  const redactor = sessionRedactor(env, settings)
  const log = endTurnsOnJournalFailure(redactingLog(input.log, redactor), (message) =>
    notice('error', `${message}. The turn stops here; nothing more is recorded.`, 'journal_failed'),
  )
  const guard = createSessionGuard(input, notice)
  const models = openSessionModels(input)
  const workspace = new SessionWorkspace(input, guard.gate)
  const tools = createToolServices(input, guard, models, workspace, notice)
  const checks = createSessionChecks(input, tools, guard, workspace, notice, () => core)
  const [read, environment] = await Promise.all([
    workspace.read(),
    takeEnvironmentSnapshot({
      projectRoot,
      cwd: input.cwd ?? projectRoot,
      modelRef: state.modelRef,
      env,
      additionalDirectories: guard.gate.additionalDirectories,
      now: new Date(),
    }),
  ])
  workspace.adopt(read, notice)
  const skillPort = createSkillPort(() => workspace.skills.definitions)
  if (workspace.skills.definitions.length > 0) tools.ports.skills = skillPort
  const { system, contextTracker } = createSessionPrompt(input, {
    environment,
    read,
    workspace,
    guard,
    hooks: () => hooks,
  })
  const hooks = createSessionHooks(input, guard, workspace, tools.toolContext.env, notice)
  const services = buildSessionServices({
    input,
    log,
    guard,
    hooks,
    models,
    tools,
    system,
    contextTracker,
    workspace,
    checks,
    notice,
    compaction: () => compaction,
  })
  // The core first: everything below that works for the session takes it, not the handle.
  const core = openSessionCore(input, services)
  const decisions = openDecisionHub(core, settings)
  if (decisions) services.decisions = decisions
  // Calls get an interaction port bound to their call and turn; this one only marks the service on.
  tools.ports.interaction = createInteractionPort(core, { toolUseId: 'session' })
  const orchestration = createSessionOrchestration(input, core, {
    guard,
    tools,
    workspace,
    environment,
    notice,
    sessionTools: () => sessionTools,
  })
  const sessionTools = new SessionTools(input, tools, redactor, notice)
  const compaction = new SessionCompaction({
    session: core,
    get tools() {
      return sessionTools.current()
    },
    settings,
    models,
    system,
    spill: tools.spill,
    preCompact: (trigger, focus) => hooks.preCompact(trigger, focus),
    postCompact: async (trigger, summary) => hooks.postCompact?.(trigger, summary),
  })
  const commands = createSessionCommands(input, core, {
    guard,
    models,
    system,
    tools,
    sessionTools,
    workspace,
    checks,
    reload: () => reload(false),
    orchestration,
  })
  const reload = createReload({
    input,
    workspace,
    guard,
    hooks,
    contextTracker,
    tools,
    skillPort,
    sessionTools,
    system,
    notice,
    commands: () => commands,
  })
  const session: Session = new SessionActor({
    core,
    hub,
    agent: {
      get tools() {
        return sessionTools.current()
      },
      relievePressure: (workingSet, force, reported) => compaction.relieve(workingSet, force, reported),
    },
    extensions: sessionExtensions({
      input,
      core,
      services,
      guard,
      redactor,
      tools,
      models,
      orchestration,
      compaction,
      system,
      commands,
      reload,
      repoMap: input.repoMap,
      notice,
    }),
  })
  announceSessionOpened(hub, notice, {
    sessionId: input.sessionId,
    projectRoot,
    resumed: input.resumed,
    state,
    loaded: input.loaded,
    replayProblems: input.replayProblems ?? [],
    gate: guard.gate,
    instructions: read.instructions,
  })
  tools.mcp.start()
  if (input.waitForMcp) await tools.mcp.settled()
  // Claude Code reports each instruction file as it enters the context, before SessionStart.
  for (const load of sessionStartLoads(read.instructions.files, projectRoot, paths.home))
    await hooks.instructionsLoaded?.(load)
  const started = await hooks.sessionStart(input.resumed ? 'resume' : 'startup')
  if (started.additionalContext) state.reminders.push(started.additionalContext)
  watchFileChanged(fileChangedPaths(workspace.loaded.hooks, projectRoot), hooks, session)
  return { session, core, view: sessionView(sessionTools, tools, commands, workspace, state) }
}

/** FileChanged hooks watch the files their matchers name (Claude Code), from session start until the close. */
function watchFileChanged(paths: string[], hooks: HookPort, session: Session): void {
  if (paths.length === 0) return
  const watch = watchFiles(paths, (path, kind) => void hooks.fileChanged?.(path, kind))
  session.onClose(() => watch.close())
}
