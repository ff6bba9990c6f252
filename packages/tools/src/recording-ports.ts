import type { TodoItem } from '@z-engine/protocol'
import { ZERO_COST, ZERO_USAGE } from '@z-engine/protocol'
import type {
  AgentPort,
  AgentRunResult,
  AgentSpawnRequest,
  CheckInfo,
  CheckPort,
  InteractionPort,
  LspPort,
  McpPort,
  SideModelPort,
  SkillPort,
  UserQuestion,
} from './ports.js'
import type { ToolResult } from './tool-result.js'

/**
 * Fakes of the ports that record every call and answer from scripted values, for tests of the
 * tools (and of embedders' integrations). Not mocks: plain objects implementing the interfaces.
 */

/** An InteractionPort that answers questions with `answers` (`'dismissed'`: no answer), plans with `planVerdict`. */
export class RecordingInteraction implements InteractionPort {
  readonly asked: UserQuestion[][] = []
  readonly plans: string[] = []
  readonly todoUpdates: TodoItem[][] = []
  constructor(
    public answers: string[][] | 'dismissed' = [],
    public planVerdict: Awaited<ReturnType<InteractionPort['proposePlan']>> = {
      approved: true,
      mode: 'default',
    },
  ) {}
  async ask(questions: UserQuestion[]): Promise<string[][] | undefined> {
    this.asked.push(questions)
    return this.answers === 'dismissed' ? undefined : this.answers
  }
  async proposePlan(plan: string): ReturnType<InteractionPort['proposePlan']> {
    this.plans.push(plan)
    return this.planVerdict
  }
  updateTodos(todos: TodoItem[]): void {
    this.todoUpdates.push(todos)
  }
}

/** A finished agent's result with the given final message and changed files. */
export function agentResult(
  finalMessage: string,
  overrides: { agentId?: string; changedFiles?: string[]; info?: Partial<AgentRunResult['info']> } = {},
): AgentRunResult {
  const agentId = overrides.agentId ?? 'agent-1'
  return {
    agentId,
    finalMessage,
    changedFiles: overrides.changedFiles ?? [],
    info: {
      id: agentId,
      agentType: 'general',
      description: 'task',
      status: 'done',
      background: false,
      depth: 1,
      usage: { ...ZERO_USAGE, inputTokens: 1200, outputTokens: 300 },
      cost: ZERO_COST,
      worktree: { type: 'none' },
      result: finalMessage,
      ...overrides.info,
    },
  }
}

/** An AgentPort with a fixed catalog that answers spawns with `outcome`. */
export class RecordingAgents implements AgentPort {
  readonly spawned: AgentSpawnRequest[] = []
  readonly applied: string[] = []
  constructor(
    public types: Array<{ name: string; description: string }> = [
      { name: 'general', description: 'General work' },
      { name: 'explore', description: 'Read-only search' },
    ],
    public outcome: Awaited<ReturnType<AgentPort['spawn']>> = {
      type: 'done',
      result: agentResult('All done.'),
    },
    public applyOutcome: Awaited<ReturnType<AgentPort['applyChanges']>> = { ok: true, changedFiles: [] },
  ) {}
  catalog(): Array<{ name: string; description: string }> {
    return this.types
  }
  async spawn(request: AgentSpawnRequest): ReturnType<AgentPort['spawn']> {
    this.spawned.push(request)
    return this.outcome
  }
  async applyChanges(agentId: string): ReturnType<AgentPort['applyChanges']> {
    this.applied.push(agentId)
    return this.applyOutcome
  }
}

/** A SkillPort serving skills from a record of name to body. */
export class RecordingSkills implements SkillPort {
  readonly loads: Array<{ name: string; args: string | undefined }> = []
  constructor(
    public skills: Record<string, { description: string; content: string; baseDir: string }> = {},
  ) {}
  list(): Array<{ name: string; description: string }> {
    return Object.entries(this.skills).map(([name, skill]) => ({ name, description: skill.description }))
  }
  async load(name: string, args?: string): Promise<{ content: string; baseDir: string } | undefined> {
    this.loads.push({ name, args })
    const skill = this.skills[name]
    return skill === undefined ? undefined : { content: skill.content, baseDir: skill.baseDir }
  }
}

/** A CheckPort with fixed checks; `run` answers with `runResult`. */
export class RecordingChecks implements CheckPort {
  readonly runs: string[][] = []
  constructor(
    public checks: CheckInfo[] = [],
    public runResult: ToolResult = { ok: true, output: { content: [{ type: 'text', text: 'passed' }] } },
  ) {}
  async list(): Promise<CheckInfo[]> {
    return this.checks
  }
  known(): readonly CheckInfo[] {
    return this.checks
  }
  async run(checkIds: string[]): Promise<ToolResult> {
    this.runs.push(checkIds)
    return this.runResult
  }
}

/** An LspPort covering files with the given extensions; `query` answers with `answer`. */
export class RecordingLsp implements LspPort {
  readonly queries: Array<Parameters<LspPort['query']>[0]> = []
  constructor(
    public extensions: string[] = ['.ts'],
    public answer: ToolResult = { ok: true, output: { content: [{ type: 'text', text: 'answer' }] } },
  ) {}
  covers(path: string): boolean {
    return this.extensions.some((extension) => path.endsWith(extension))
  }
  async query(request: Parameters<LspPort['query']>[0]): Promise<ToolResult> {
    this.queries.push(request)
    return this.answer
  }
  async diagnosticsAfterWrite(): Promise<string | undefined> {
    return undefined
  }
}

/** An McpPort answering resource calls with fixed results. */
export class RecordingMcp implements McpPort {
  readonly listed: Array<string | undefined> = []
  readonly read: Array<{ server: string; uri: string }> = []
  constructor(
    public listResult: ToolResult = { ok: true, output: { content: [{ type: 'text', text: 'resources' }] } },
    public readResult: ToolResult = { ok: true, output: { content: [{ type: 'text', text: 'contents' }] } },
  ) {}
  async listResources(server: string | undefined): Promise<ToolResult> {
    this.listed.push(server)
    return this.listResult
  }
  async readResource(server: string, uri: string): Promise<ToolResult> {
    this.read.push({ server, uri })
    return this.readResult
  }
  async callTool(): Promise<ToolResult> {
    return { ok: false, error: { code: 'unsupported', message: 'not scripted' } }
  }
}

/** A SideModelPort that records prompts and answers with `reply(prompt)`. */
export class RecordingSideModel implements SideModelPort {
  readonly prompts: string[] = []
  constructor(public reply: (prompt: string) => string = () => 'extracted') {}
  async complete(prompt: string): Promise<string> {
    this.prompts.push(prompt)
    return this.reply(prompt)
  }
}
