import type { EnvironmentSnapshot } from '@z-engine/context'
import type { WorktreeGitOptions } from '@z-engine/host'
import { reminderText, wrapReminder } from '@z-engine/prompts'
import type { AgentInfo, AgentStatus, ContentBlock, JobInfo, Message, Settings } from '@z-engine/protocol'
import { ZERO_COST, ZERO_USAGE } from '@z-engine/protocol'
import type { AgentPort, AgentRunResult, AgentSpawnRequest, Ports, Tool } from '@z-engine/tools'
import { routeRun } from '../decisions/seams/route.js'
import { type RunOutcome, runAgent } from '../run/agent-run.js'
import type { SessionCore } from '../session/session-core.js'
import type { AgentDefinition } from '../workspace/definitions/types.js'
import type { AgentCaller, AgentEntry } from './agent-entry.js'
import { publishAgent } from './agent-events.js'
import { AgentJobs } from './agent-jobs.js'
import { agentMode, agentModeWarning } from './agent-mode.js'
import { agentModelPinned, agentModelRef, isModelRole } from './agent-model.js'
import { AgentSlots } from './agent-slots.js'
import { subagentSystem } from './agent-system.js'
import { subagentTools, toolPatternMatches } from './agent-tools.js'
import { isolatedWorktree, type RemoveWorktree, worktreeRemover } from './agent-worktree.js'
import { restoreAgent } from './restore-agent.js'
import { buildSubagentRunHost } from './subagent-run-host.js'
import {
  type ApplyOutcome,
  applyWorktree,
  discardWorktree,
  finishWorktree,
  waitingWorktrees,
  worktreeDiff,
} from './worktree-changes.js'

/** What the orchestrator is built from. */
export interface OrchestratorDeps {
  session: SessionCore
  settings: Settings
  projectRoot: string
  definitions: () => readonly AgentDefinition[]
  /** The main agent's toolset; a subagent's is filtered from it. */
  tools: () => readonly Tool[]
  environment: EnvironmentSnapshot
  /** The session's ports; a subagent's calls see them with Agent rebound and no user interaction. */
  ports: Ports
  /** Agent transcripts (`agents/<id>.jsonl`; written through the session core's journal). */
  transcript: {
    /** A stored agent's messages, for resuming one this process has not run. */
    replay(agentId: string): Promise<Message[] | undefined>
    /** The latest info of every agent in the chat's log (earlier runs of the chat included). */
    agents(): Promise<AgentInfo[]>
  }
  git: WorktreeGitOptions
  /** The MCP servers a definition's own `mcpServers` start for one run (absent: none are started). */
  agentMcp?: (definition: AgentDefinition) => AgentMcp | undefined
}

/** An agent's own MCP servers for one run: started before it, closed after it. */
export interface AgentMcp {
  start(): void
  settled(): Promise<void>
  tools(): readonly Tool[]
  close(): Promise<void>
}

/** Subagents never talk to the user: no questions or plans, and their todos stay their own. */
const SUBAGENT_INTERACTION: NonNullable<Ports['interaction']> = {
  ask: async () => undefined,
  proposePlan: async () => ({ approved: false, feedback: 'Subagents cannot propose plans to the user.' }),
  updateTodos: () => {},
}

/**
 * Starts and tracks a session's subagents (spec 003 "Subagents"): foreground runs awaited by the
 * Agent call, background runs as jobs, resumes from the stored transcript, and worktree isolation
 * with apply and discard.
 */
export class Orchestrator {
  /** Background agents as jobs (merged with background shells into the session's JobPort). */
  readonly jobs = new AgentJobs()
  readonly #entries = new Map<string, AgentEntry>()
  readonly #slots: AgentSlots

  constructor(private readonly deps: OrchestratorDeps) {
    this.#slots = new AgentSlots(deps.settings.agents.max_concurrent)
  }

  /** The engine's worktrees removed with git, a WorktreeCreate hook's through the WorktreeRemove hooks. */
  #removeWorktree: RemoveWorktree = (worktree) =>
    worktreeRemover(this.deps.projectRoot, this.deps.git, this.deps.session.services.hooks)(worktree)

  /** The AgentPort the main agent's calls see. */
  mainPort(): AgentPort {
    const state = () => this.deps.session.state
    return this.port({
      depth: 0,
      model: () => state().modelRef,
      modelPinned: () => state().modelPinned,
      mode: () => state().mode,
    })
  }

  /** An AgentPort whose spawns are children of `caller`. */
  port(caller: AgentCaller): AgentPort {
    return {
      catalog: () =>
        this.deps
          .definitions()
          .map((definition) => ({ name: definition.name, description: definition.description })),
      spawn: (request, signal) => this.#spawn(caller, request, signal),
      applyChanges: (agentId) => this.applyChanges(agentId),
    }
  }

  /** Merges a worktree agent's committed changes into the project (three-way). */
  async applyChanges(agentId: string): Promise<ApplyOutcome> {
    const entry = await this.#known(agentId)
    if (!entry) return { ok: false, conflicts: [], message: `there is no agent '${agentId}' in this chat` }
    if (entry.running)
      return { ok: false, conflicts: [], message: `agent ${agentId} is still running; wait for it to finish` }
    const { outcome, state } = await applyWorktree(entry, this.deps, this.#removeWorktree)
    if (state) {
      if (state.type === 'applied') delete entry.worktree
      await this.#update(entry, { worktree: state })
    }
    return outcome
  }

  /** Removes a worktree agent's worktree and branch without applying them. */
  async discardChanges(agentId: string): Promise<{ ok: true } | { ok: false; message: string }> {
    const entry = await this.#known(agentId)
    if (!entry) return { ok: false, message: `there is no agent '${agentId}' in this chat` }
    if (entry.running) return { ok: false, message: `agent ${agentId} is still running; stop it first` }
    const discarded = await discardWorktree(entry, this.#removeWorktree)
    if (!discarded.ok) return discarded
    delete entry.worktree
    await this.#update(entry, { worktree: { type: 'discarded' } })
    return { ok: true }
  }

  /** `/worktrees`: agents whose worktree holds changes (newest state per agent), and one's diff. */
  readonly worktrees = {
    list: async () => waitingWorktrees([...(await this.deps.transcript.agents()), ...this.#infos()]),
    diff: async (agentId: string) =>
      worktreeDiff(agentId, await this.#known(agentId), this.deps.projectRoot, this.deps.git),
  }

  #infos = (): AgentInfo[] => [...this.#entries.values()].map((entry) => entry.info)

  /** Cancels every background agent (session shutdown). */
  shutdown(): Promise<void> {
    return this.jobs.shutdown()
  }

  async #spawn(caller: AgentCaller, request: AgentSpawnRequest, signal: AbortSignal) {
    const maxDepth = this.deps.settings.agents.max_depth
    if (caller.depth + 1 > maxDepth) throw new Error(`subagents may nest at most ${maxDepth} level(s) deep`)
    const entry =
      request.resume !== undefined
        ? await this.#resumed(request.resume, request, caller)
        : await this.#created(request, caller)
    await this.#update(entry, { status: 'pending', background: request.background })
    if (!request.background) {
      const running = this.#run(entry, request.prompt, signal)
      entry.running = running
      return { type: 'done' as const, result: await running }
    }
    const session = this.deps.session
    const job: JobInfo = {
      id: session.newId('job'),
      kind: 'agent',
      description: request.description,
      status: 'running',
      startedAt: new Date().toISOString(),
      agentId: entry.info.id,
    }
    // Background agents belong to the session, not the turn: Esc leaves them running.
    const record = { info: job, controller: new AbortController() }
    entry.job = record
    this.jobs.add(entry)
    session.publish({ type: 'jobUpdated', job })
    entry.running = this.#run(entry, request.prompt, record.controller.signal)
    void entry.running.then((result) => this.#jobEnded(entry, record, result)).catch(() => undefined)
    return { type: 'background' as const, jobId: job.id, agentId: entry.info.id }
  }

  /** A new agent (`id` given when a stored one is resumed: it never gets a new worktree then). */
  async #created(request: AgentSpawnRequest, caller: AgentCaller, storedId?: string): Promise<AgentEntry> {
    const session = this.deps.session
    const definition = this.deps.definitions().find((candidate) => candidate.name === request.agentType)
    if (!definition) throw new Error(`no agent type '${request.agentType}'`)
    const choice = request.model ?? definition.model
    let modelRef = agentModelRef(request.model, definition.model, {
      callerModel: caller.model(),
      sessionModel: session.state.modelRef,
      settings: this.deps.settings,
    })
    let modelPinned = agentModelPinned(choice, {
      callerPinned: caller.modelPinned(),
      sessionPinned: session.state.modelPinned,
      settings: this.deps.settings,
    })
    let resolved = session.services.models.resolve(modelRef)
    if (!resolved.ok && modelRef !== caller.model()) {
      // A model that cannot be used (unknown, no key, a role set to something broken) must not make
      // the agent type unusable: the agent runs on the caller's model, and the user is told why.
      const what = isModelRole(choice) ? `The ${choice} model ${modelRef}` : `The model ${modelRef}`
      session.notice(
        'warning',
        `${what} is unavailable (${resolved.message}); agent ${definition.name} uses ${caller.model()} instead.`,
        'agent',
      )
      modelRef = caller.model()
      modelPinned = caller.modelPinned()
      resolved = session.services.models.resolve(modelRef)
    }
    if (!resolved.ok) throw new Error(`the agent's model ${modelRef} is unavailable: ${resolved.message}`)
    const id = storedId ?? session.newId('agent')
    const isolated =
      storedId === undefined && (request.isolation === 'worktree' || definition.isolation === 'worktree')
    const worktree = isolated
      ? await isolatedWorktree(this.deps, session, { id, name: definition.name })
      : undefined
    const entry: AgentEntry = {
      info: {
        id,
        agentType: definition.name,
        description: request.description,
        status: 'pending',
        background: request.background,
        depth: caller.depth + 1,
        usage: { ...ZERO_USAGE },
        cost: { ...ZERO_COST },
        worktree: worktree
          ? { type: 'active', path: worktree.path, branch: worktree.branch }
          : { type: 'none' },
        ...(caller.agentId !== undefined ? { parentId: caller.agentId } : {}),
      },
      definition,
      caller,
      modelRef,
      modelPinned,
      messages: [],
      followUps: [],
      root: worktree ? worktree.root : this.deps.projectRoot,
      latestText: '',
      ...(worktree ? { worktree } : {}),
    }
    this.#entries.set(id, entry)
    return entry
  }

  /** A finished agent continued with its whole transcript; a worktree agent re-enters its worktree. */
  async #resumed(agentId: string, request: AgentSpawnRequest, caller: AgentCaller): Promise<AgentEntry> {
    const known = await this.#known(agentId)
    if (known?.running)
      throw new Error(`agent ${agentId} is still running; wait for it (JobOutput) before resuming it`)
    if (known) {
      const worktreeLive = known.info.worktree.type === 'pending' || known.info.worktree.type === 'conflicted'
      if (known.worktree && worktreeLive)
        known.info = {
          ...known.info,
          worktree: { type: 'active', path: known.worktree.path, branch: known.worktree.branch },
        }
      else delete known.worktree
      known.root = known.worktree?.root ?? this.deps.projectRoot
      delete known.job
      return known
    }
    const messages = await this.deps.transcript.replay(agentId)
    if (messages === undefined) throw new Error(`there is no finished agent '${agentId}' to resume`)
    // It keeps its id, so its transcript file continues.
    const entry = await this.#created(request, caller, agentId)
    entry.messages = messages
    return entry
  }

  /** An agent of this chat: in memory, or restored from the log of an earlier run of the chat. */
  async #known(agentId: string): Promise<AgentEntry | undefined> {
    const known = this.#entries.get(agentId)
    if (known) return known
    const info = (await this.deps.transcript.agents()).find((candidate) => candidate.id === agentId)
    const restored = info ? await restoreAgent(info, this.deps, this.deps.session.state) : undefined
    if (restored) this.#entries.set(agentId, restored)
    return restored
  }

  /**
   * The route seam at launch (spec 000: orchestration/launch): this run's effort and model, raised
   * within what the agent's definition allows (docs/decisions.md "Route"), announced with
   * `routeChosen` and its agent id. Undefined: the agent runs as configured.
   */
  async #route(
    entry: AgentEntry,
    prompt: string,
    signal: AbortSignal,
  ): Promise<{ modelRef?: string; effort?: 'low' | 'medium' | 'high' | 'max' } | undefined> {
    return routeRun(
      this.deps.session,
      {
        prompt,
        modelRef: entry.modelRef,
        pinned: entry.modelPinned,
        agent: { id: entry.info.id, type: entry.definition.name, description: entry.info.description },
      },
      signal,
    )
  }

  /** Runs one prompt of an agent to its end; never rejects (failures become a failed status). */
  async #run(entry: AgentEntry, prompt: string, signal: AbortSignal): Promise<AgentRunResult> {
    const session = this.deps.session
    const modeWarning = agentModeWarning(entry.definition, entry.caller)
    if (modeWarning !== undefined) session.notice('warning', modeWarning, 'agent')
    // The definition's own MCP servers start for this run (their tools are in its first request).
    const own = entry.definition.mcpServers !== undefined ? this.deps.agentMcp?.(entry.definition) : undefined
    own?.start()
    await own?.settled()
    const denied = entry.definition.disallowedTools ?? []
    const ownTools = (own?.tools() ?? []).filter(
      (tool) => !denied.some((pattern) => toolPatternMatches(pattern, tool.name)),
    )
    const route = await this.#route(entry, prompt, signal)
    const host = buildSubagentRunHost({
      session,
      entry,
      ...(route !== undefined ? { route } : {}),
      tools: [
        ...subagentTools(
          this.deps.tools(),
          withOwnServers(entry.definition),
          entry.info.depth,
          this.deps.settings.agents.max_depth,
        ),
        ...ownTools,
      ],
      system: subagentSystem(entry, this.deps.environment),
      mode: () =>
        // A chat in bypass overrides every agent's own mode, at each call (spec 001).
        session.state.mode === 'bypass' ? 'bypass' : agentMode(entry.definition, entry.caller),
      ports: {
        ...this.deps.ports,
        interaction: SUBAGENT_INTERACTION,
        agents: this.port({
          depth: entry.info.depth,
          agentId: entry.info.id,
          model: () => entry.modelRef,
          modelPinned: () => entry.modelPinned,
          mode: () => agentMode(entry.definition, entry.caller),
        }),
      },
      maxTurns: entry.definition.maxTurns ?? this.deps.settings.agents.max_turns,
      // Progress (usage, waiting on approvals) is journaled too; a failed write while the chat closes
      // is reported by the journal's own failure notice, not by this fire-and-forget update.
      onChange: () => void publishAgent(session, entry.info).catch(() => undefined),
    })
    let outcome: RunOutcome | { type: 'crashed'; message: string; changedFiles: string[] }
    // Top-level and background agents wait for a slot; nested foreground ones use their caller's.
    const needsSlot = entry.info.background || entry.caller.depth === 0
    const release = needsSlot ? await this.#slots.acquire(signal) : () => {}
    try {
      if (!release) outcome = { type: 'cancelled', mutated: false, changedFiles: [], rounds: 0 }
      else {
        await this.#update(entry, { status: 'running' })
        // SubagentStart hooks (matched on the agent type) may give the subagent context to start with.
        const started = await session.services.hooks.subagentStart?.({
          id: entry.info.id,
          type: entry.definition.name,
        })
        const content: ContentBlock[] = [{ type: 'text', text: prompt }]
        if (started?.additionalContext !== undefined)
          content.push({
            type: 'text',
            text: wrapReminder(`SubagentStart hook context: ${started.additionalContext}`),
          })
        await host.append({ id: session.newId('m'), role: 'user', content }, 'prompt')
        outcome = await runAgent(host, signal)
      }
    } catch (error) {
      // A stopped agent may fail on its way out (the chat closing its logs): it was still cancelled.
      outcome = signal.aborted
        ? { type: 'cancelled', mutated: false, changedFiles: [], rounds: 0 }
        : {
            type: 'crashed',
            message: error instanceof Error ? error.message : String(error),
            changedFiles: [],
          }
    }
    // Closed on every way out; a server that will not stop is killed with its process group.
    await own?.close().catch(() => undefined)
    const { status, finalMessage } = ending(outcome, entry.latestText)
    const finished = await finishWorktree(entry, this.deps.git, this.#removeWorktree)
    if (finished.state.type === 'empty') delete entry.worktree
    const result = finished.problem !== undefined ? `${finalMessage}\n\n${finished.problem}` : finalMessage
    delete entry.running
    // The session may be closing under a background agent; its end is still reported to the caller.
    await this.#update(entry, { status, result, worktree: finished.state }).catch(() => undefined)
    // The slot is held until the worktree is committed and the end reported.
    release?.()
    return {
      agentId: entry.info.id,
      finalMessage: result,
      changedFiles: outcome.changedFiles,
      // A crashed run may have written anything before it died.
      mutated: 'mutated' in outcome ? outcome.mutated : true,
      info: entry.info,
    }
  }

  async #jobEnded(
    entry: AgentEntry,
    job: NonNullable<AgentEntry['job']>,
    result: AgentRunResult,
  ): Promise<void> {
    const status: JobInfo['status'] =
      result.info.status === 'done' ? 'exited' : result.info.status === 'cancelled' ? 'killed' : 'failed'
    job.info = {
      ...job.info,
      status,
      endedAt: new Date().toISOString(),
      ...(status === 'exited' ? { exitCode: 0 } : {}),
    }
    const session = this.deps.session
    const reminder = reminderText('jobFinished', {
      jobId: job.info.id,
      description: job.info.description,
      status: result.info.status,
    })
    // The agent that started it hears of it; once that agent has ended, the main agent does.
    // Queued before anything awaits, so a JobOutput that waited for this agent carries it back.
    const parent = entry.caller.agentId !== undefined ? this.#entries.get(entry.caller.agentId) : undefined
    if (parent?.running) parent.followUps.push(reminder)
    else session.state.reminders.push(reminder)
    session.publish({ type: 'jobUpdated', job: job.info })
  }

  async #update(entry: AgentEntry, patch: Partial<AgentInfo>): Promise<void> {
    entry.info = { ...entry.info, ...patch }
    await publishAgent(this.deps.session, entry.info)
  }
}

/** An agent's status and the message its caller gets, from how its run ended. */
function ending(
  outcome: RunOutcome | { type: 'crashed'; message: string },
  latestText: string,
): { status: AgentStatus; finalMessage: string } {
  switch (outcome.type) {
    case 'done':
      return { status: 'done', finalMessage: outcome.finalText }
    case 'cancelled':
      return { status: 'cancelled', finalMessage: latestText }
    case 'budgetExhausted':
      return {
        status: 'done',
        finalMessage:
          `${latestText}\n\n(The agent stopped early: its ${outcome.budget === 'maxTurns' ? 'turn limit' : 'session cost cap'} was reached.)`.trim(),
      }
    case 'failed':
      return { status: 'failed', finalMessage: `${latestText}\n\n${outcome.error.message}`.trim() }
    case 'incomplete':
      // The caller gets what there is and why it is not a finished report.
      return {
        status: 'done',
        finalMessage:
          `${outcome.finalText || latestText}\n\n(The agent's answer is incomplete: ${outcome.message})`.trim(),
      }
    case 'crashed':
      return { status: 'failed', finalMessage: outcome.message }
    default: {
      const never: never = outcome
      return never
    }
  }
}

/** A `tools` allowlist also admits the servers the definition names in `mcpServers` (shared session ones). */
function withOwnServers(definition: AgentDefinition): AgentDefinition {
  if (definition.tools === undefined || definition.mcpServers === undefined) return definition
  return {
    ...definition,
    tools: [...definition.tools, ...definition.mcpServers.map((server) => `mcp__${server.name}`)],
  }
}
