import type { SandboxRequest, ShellRunResult } from '@z-engine/host'
import type { AgentInfo, JobInfo, TodoItem } from '@z-engine/protocol'
import type { ToolResult } from './tool-result.js'

/**
 * Ports: engine services tools reach through interfaces, so `tools` never depends on `engine`.
 * The engine implements them; tests pass fakes that record their calls.
 */

/** A subagent request from the Agent tool. */
export interface AgentSpawnRequest {
  agentType: string
  description: string
  prompt: string
  background: boolean
  /** Continue a finished agent from its stored transcript. */
  resume?: string
  model?: string
  isolation?: 'worktree'
}

/** What a foreground agent returns. */
export interface AgentRunResult {
  agentId: string
  finalMessage: string
  changedFiles: string[]
  /** Whether the agent may have changed the project (a write or a non-read-only call in its own folder); absent: unknown. */
  mutated?: boolean
  info: AgentInfo
}

/** Starts and manages subagents. */
export interface AgentPort {
  /** Agent types the model may start, with their one-line descriptions. */
  catalog(): Array<{ name: string; description: string }>
  /** Foreground: resolves with the result. Background: resolves at once with the job id. */
  spawn(
    request: AgentSpawnRequest,
    signal: AbortSignal,
  ): Promise<
    { type: 'done'; result: AgentRunResult } | { type: 'background'; jobId: string; agentId: string }
  >
  /** Applies (three-way merge) a worktree agent's changes into the project. */
  applyChanges(
    agentId: string,
  ): Promise<{ ok: true; changedFiles: string[] } | { ok: false; conflicts: string[]; message: string }>
}

/** One question of AskUserQuestion. */
export interface UserQuestion {
  question: string
  header: string
  options: Array<{ label: string; description: string }>
  multiSelect: boolean
  /** False for a closed choice (a yes/no consent): no typed answer is offered. */
  freeText?: boolean
}

/** Talks to the user: questions, plans and todos. */
export interface InteractionPort {
  /** Resolves with one answer per question (labels, or free text), or `undefined` when dismissed. */
  ask(questions: UserQuestion[], signal: AbortSignal): Promise<string[][] | undefined>
  /** Proposes a plan; resolves when the user approves (with the mode to continue in) or rejects it. */
  proposePlan(
    plan: string,
    signal: AbortSignal,
  ): Promise<{ approved: true; mode: string } | { approved: false; feedback?: string }>
  /** Replaces the todo list (resolves once it is journaled). */
  updateTodos(todos: TodoItem[]): void | Promise<void>
}

/** Background shells and agents. */
export interface JobPort {
  /** Starts a shell command in the background; resolves with its job id. */
  spawnShell(
    command: string,
    options: { cwd: string; description?: string; sandbox?: SandboxRequest },
  ): Promise<JobInfo>
  /**
   * Output produced since the last read (a `filter` regex keeps matching lines; the rest is consumed
   * too). With `waitMs`, first waits up to that long for the job to finish (spec 003), returning
   * early when it does or when `signal` aborts. Undefined for an unknown job id.
   */
  read(
    jobId: string,
    options: { filter?: string; waitMs?: number },
    signal: AbortSignal,
  ): Promise<{ output: string; info: JobInfo } | undefined>
  /** Kills a job (the whole process tree for shells). */
  kill(jobId: string): Promise<JobInfo | undefined>
  list(): JobInfo[]
  /**
   * All the output still kept (a shell's) or the latest message (an agent's), for the user to look
   * at: it does not consume what `read` has yet to give the model. Undefined for an unknown job id.
   */
  peek?(jobId: string): { output: string; info: JobInfo } | undefined
}

/** Skills the model may load. */
export interface SkillPort {
  list(): Array<{ name: string; description: string }>
  /** The skill's body, or undefined when unknown. */
  load(name: string, args?: string): Promise<{ content: string; baseDir: string } | undefined>
}

/** A check the engine knows how to run (tests, build, typecheck, lint). */
export interface CheckInfo {
  id: string
  kind: 'test' | 'build' | 'typecheck' | 'lint' | 'other'
  command: string
  /** Where it was found (`package.json scripts.test`, `settings [[verification.checks]]`). */
  source: string
  /** The folder it runs in (absolute). */
  cwd: string
  /** How long it may run; the shell's largest timeout when absent. */
  timeoutMs?: number
}

/**
 * Runs one check command the way Bash runs this call's commands: the environment policy, the
 * sandbox the permission relied on, the session's process scope and the call's cancellation.
 */
export type CheckCommandRunner = (
  command: string,
  options: { cwd: string; timeoutMs: number; onOutput?: (text: string) => void },
) => Promise<ShellRunResult>

/** Lists and runs verification checks, recording evidence. */
export interface CheckPort {
  list(): Promise<CheckInfo[]>
  /** The checks known now, without waiting (what `action()` maps a run to); undefined before discovery. */
  known?(): readonly CheckInfo[] | undefined
  /** Runs the checks in order through `runner`, records a CheckRecord for each, returns the summary. */
  run(checkIds: string[], runner: CheckCommandRunner, signal: AbortSignal): Promise<ToolResult>
}

/** Language-server queries. */
export interface LspPort {
  /** Whether a server covers this file (by extension and installed binaries). */
  covers(path: string): boolean
  /** Runs one LSP tool operation; `filePath` is absolute (absent for `workspaceSymbol`), positions 1-based. */
  query(
    request: {
      operation: string
      filePath?: string
      line?: number
      character?: number
      /** Stands for the position when line/character are absent (first whole-word occurrence). */
      symbol?: string
      query?: string
      newName?: string
    },
    signal: AbortSignal,
  ): Promise<ToolResult>
  /** Fresh error diagnostics after a write, rendered for the model; undefined when none or not covered. */
  diagnosticsAfterWrite(path: string, signal: AbortSignal): Promise<string | undefined>
}

/** MCP resources and tools. */
export interface McpPort {
  listResources(server: string | undefined, signal: AbortSignal): Promise<ToolResult>
  readResource(server: string, uri: string, signal: AbortSignal): Promise<ToolResult>
  callTool(
    server: string,
    tool: string,
    input: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<ToolResult>
}

/** A small model for auxiliary jobs (WebFetch extraction). */
export interface SideModelPort {
  /** The model reference answering (e.g. the `model.fast` setting), named in results that used it. */
  readonly model?: string
  complete(prompt: string, signal: AbortSignal): Promise<string>
}

/** Every port; a missing port means the service is off and its tools are left out of the toolset. */
export interface Ports {
  agents?: AgentPort
  interaction?: InteractionPort
  jobs?: JobPort
  skills?: SkillPort
  checks?: CheckPort
  lsp?: LspPort
  mcp?: McpPort
  sideModel?: SideModelPort
}
