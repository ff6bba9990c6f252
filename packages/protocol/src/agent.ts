import { arr, bool, enums, type Infer, int, nullable, obj, str, tagged, variant } from './schema/builder.js'
import { CostSchema, UsageSchema } from './usage.js'

/** Schema of {@link AgentStatus}. */
export const AgentStatusSchema = enums(['pending', 'running', 'waiting', 'done', 'failed', 'cancelled'])
/** Where an agent is in its life. */
export type AgentStatus = Infer<typeof AgentStatusSchema>

/** Schema of {@link WorktreeState}. */
export const WorktreeStateSchema = tagged([
  variant('none'),
  variant('active', { path: str(), branch: str() }),
  variant('empty'),
  variant('pending', { path: str(), branch: str(), summary: str(), changedFiles: arr(str()) }),
  variant('applied', { changedFiles: arr(str()) }),
  variant('conflicted', { conflicts: arr(str()) }, { path: str(), branch: str() }),
  variant('discarded'),
])
/**
 * A worktree agent's changes (spec 003): `active` while it runs, then `empty` (no changes, cleaned
 * up) or `pending` (committed and summarized, waiting for apply or discard), then `applied`, `conflicted` (worktree kept) or `discarded`.
 */
export type WorktreeState = Infer<typeof WorktreeStateSchema>

/** Schema of {@link AgentInfo}. */
export const AgentInfoSchema = obj(
  {
    id: str({ minLength: 1 }),
    agentType: str(),
    description: str(),
    status: AgentStatusSchema,
    background: bool(),
    depth: int({ minimum: 0 }),
    usage: UsageSchema,
    cost: CostSchema,
    worktree: WorktreeStateSchema,
  },
  {
    parentId: str(),
    result: str({ description: 'The final message, once done.' }),
  },
)
/** What the GUI shows of one subagent. */
export type AgentInfo = Infer<typeof AgentInfoSchema>

/** Schema of {@link JobInfo}. */
export const JobInfoSchema = obj(
  {
    id: str({ minLength: 1 }),
    kind: enums(['shell', 'agent']),
    description: str(),
    status: enums(['running', 'exited', 'killed', 'failed']),
    startedAt: str(),
  },
  { exitCode: int(), endedAt: str(), agentId: str({ description: 'For agent jobs, the agent it runs.' }) },
)
/** A background job: a shell or an agent. */
export type JobInfo = Infer<typeof JobInfoSchema>

/** Schema of {@link TodoItem}. */
export const TodoItemSchema = obj(
  { content: str(), status: enums(['pending', 'in_progress', 'completed']) },
  { activeForm: str() },
)
/** One item of the todo list (TodoWrite). */
export type TodoItem = Infer<typeof TodoItemSchema>

/** One todo as a markdown line, as Claude Code shows it: `☐ x` pending, `**◼ x**` in progress, `☒ x` done. */
export function todoMarkdown(todo: TodoItem): string {
  switch (todo.status) {
    case 'pending':
      return `☐ ${todo.content}`
    case 'in_progress':
      // Bold through a markdown renderer; a `*` inside the text would end the span early.
      return `**◼ ${todo.content.replaceAll('*', '∗')}**`
    case 'completed':
      return `☒ ${todo.content}`
    default: {
      const unreachable: never = todo.status
      return unreachable
    }
  }
}

/** Schema of {@link CheckRecord}. */
export const CheckRecordSchema = obj(
  {
    id: str({ minLength: 1 }),
    checkId: str(),
    kind: enums(['test', 'build', 'typecheck', 'lint', 'other']),
    command: str(),
    exitCode: nullable(int()),
    passed: bool(),
    durationMs: int({ minimum: 0 }),
    fingerprintBefore: str(),
    fingerprintAfter: str(),
    at: str(),
  },
  {
    tests: obj({ passed: int({ minimum: 0 }), failed: int({ minimum: 0 }), skipped: int({ minimum: 0 }) }),
    outputArtifact: str({ description: 'Artifact holding the full output.' }),
  },
)
/** A check run's evidence (spec 000 "Verification"). */
export type CheckRecord = Infer<typeof CheckRecordSchema>
