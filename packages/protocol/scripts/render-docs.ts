/**
 * Renders the reference parts of docs/protocol.md from the schemas, so the doc cannot drift from
 * the code: commands, events, log records, shared types and settings keys. The test compares the
 * doc with this output; `pnpm --filter @z-engine/protocol docs` rewrites it.
 */
import * as agent from '../src/agent.js'
import { CommandSchemas } from '../src/commands.js'
import * as content from '../src/content.js'
import * as decisions from '../src/decisions.js'
import { EventEnvelopeSchema } from '../src/envelope.js'
import { EngineEventSchema, EventSchemas, NoticeLevelSchema, ToolProgressSchema } from '../src/events.js'
import * as history from '../src/history.js'
import * as interaction from '../src/interaction.js'
import { LogRecordSchemas } from '../src/log-records.js'
import { MessageOriginSchema, MessageSchema, RoleSchema } from '../src/message.js'
import * as permission from '../src/permission.js'
import { HookEntrySchema } from '../src/settings/hooks.js'
import { McpServerSettingsSchema } from '../src/settings/server-sections.js'
import { CheckSettingsSchema } from '../src/settings/tool-sections.js'
import { SettingsSchema } from '../src/settings.js'
import { ToolChoiceSchema, ToolSpecSchema, ToolStatusSchema } from '../src/tool-spec.js'
import { TurnOutcomeSchema, TurnSummarySchema, VerificationBadgeSchema } from '../src/turn.js'
import { CostSchema, UsageSchema } from '../src/usage.js'

type Node = {
  type?: string
  const?: unknown
  enum?: readonly unknown[]
  items?: Node
  properties?: Record<string, Node>
  required?: readonly string[]
  additionalProperties?: boolean | Node
  anyOf?: readonly Node[]
  oneOf?: readonly Node[]
  description?: string
  default?: unknown
  minimum?: number
  maximum?: number
  minLength?: number
  minItems?: number
}

/** Shared types, by name and meaning, in the order the "Shared types" section lists them. */
const NAMED: readonly (readonly [string, unknown, string])[] = [
  [
    'Message',
    MessageSchema,
    'A provider-neutral message; `id` is stable across the session (journal, rewind, compaction and task views refer to it).',
  ],
  ['Role', RoleSchema, "Who spoke. System text lives in the request's system sections, never in messages."],
  [
    'ContentBlock',
    content.ContentBlockSchema,
    'The pieces a message is made of. `signature` (Anthropic) and `encrypted` (OpenAI Responses reasoning) are kept verbatim and sent back; `redacted_thinking.data` is opaque.',
  ],
  ['ImageSource', content.ImageSourceSchema, "Where an image's bytes come from."],
  ['ToolResultContent', content.ToolResultContentSchema, 'What a tool result may hold: text and images.'],
  ['Attachment', content.AttachmentSchema, 'What a user may attach to a prompt besides its text.'],
  ['ToolSpec', ToolSpecSchema, 'What the model is told about one tool.'],
  ['ToolChoice', ToolChoiceSchema, 'How the model may choose tools on one request.'],
  ['ToolStatus', ToolStatusSchema, 'How a tool call ended, as shown to the user.'],
  ['ToolProgress', ToolProgressSchema, "One piece of a running tool's progress."],
  ['Usage', UsageSchema, 'Token counts reported by a provider for one or more requests.'],
  ['Cost', CostSchema, 'Cost in US dollars, split the way prices are quoted.'],
  [
    'PermissionMode',
    permission.PermissionModeSchema,
    'Ask (`default`), Auto-accept edits (`acceptEdits`), Plan (`plan`), Bypass (`bypass`; `bypassPermissions` accepted on input).',
  ],
  [
    'ApprovalRequest',
    permission.ApprovalRequestSchema,
    'An approval card; every ask of one tool batch is requested together (same `batchId`).',
  ],
  [
    'ApprovalDecision',
    permission.ApprovalDecisionSchema,
    'Allow once, allow for the session or the project with a rule, or deny with optional feedback for the model.',
  ],
  ['Preview', permission.PreviewSchema, 'What an approval card shows: a diff, a command, or text.'],
  [
    'SuggestedRule',
    permission.SuggestedRuleSchema,
    'The rule "Always allow" would add; `session` scope for targets outside the project. Absent for protected paths.',
  ],
  [
    'TurnOutcome',
    TurnOutcomeSchema,
    'How a turn ended; a turn that started and never finished replays as `interrupted`.',
  ],
  [
    'VerificationBadge',
    VerificationBadgeSchema,
    'Verified / Unverified / Failed / NotApplicable (spec 000 "Verification").',
  ],
  ['TurnSummary', TurnSummarySchema, "A finished turn's outcome, usage, cost and badge."],
  ['AgentInfo', agent.AgentInfoSchema, 'What the GUI shows of one subagent.'],
  ['AgentStatus', agent.AgentStatusSchema, 'Where an agent is in its life.'],
  [
    'WorktreeState',
    agent.WorktreeStateSchema,
    "A worktree agent's changes: `active` while it runs, then `empty` or `pending`, then `applied`, `conflicted` (worktree kept) or `discarded`.",
  ],
  ['JobInfo', agent.JobInfoSchema, 'A background job: a shell or an agent.'],
  ['TodoItem', agent.TodoItemSchema, 'One item of the todo list (TodoWrite).'],
  [
    'CheckRecord',
    agent.CheckRecordSchema,
    "A check run's evidence: command, exit code, test counts, duration, output artifact, fingerprints before and after.",
  ],
  ['QuestionRequest', interaction.QuestionRequestSchema, 'Questions the agent waits on (AskUserQuestion).'],
  ['Question', interaction.QuestionSchema, 'One question; the user may always type another answer.'],
  ['QuestionOption', interaction.QuestionOptionSchema, 'One choice of a question.'],
  ['QuestionResponse', interaction.QuestionResponseSchema, 'Answers in question order, or dismissed.'],
  ['QuestionAnswer', interaction.QuestionAnswerSchema, 'The answer to one question.'],
  ['PlanProposal', interaction.PlanProposalSchema, 'A plan proposed to leave plan mode (ExitPlanMode).'],
  [
    'PlanDecision',
    interaction.PlanDecisionSchema,
    'Approve (switching to `mode`) or keep planning with feedback.',
  ],
  [
    'Checkpoint',
    history.CheckpointSchema,
    'A working-tree snapshot in the shadow repository, taken before a user turn.',
  ],
  ['RewindScope', history.RewindScopeSchema, 'What a rewind restores.'],
  [
    'CompactionTrigger',
    history.CompactionTriggerSchema,
    'Context pressure (`auto`) or `/compact` / Compact now (`manual`).',
  ],
  [
    'CompactionMarker',
    history.CompactionMarkerSchema,
    'The "Context compacted" divider with the sizes before and after.',
  ],
  [
    'TaskView',
    history.TaskViewSchema,
    'A reduced working set kept by the task-view decision use, or a restore of the full history.',
  ],
  ['Route', decisions.RouteSchema, 'The effort or model the route seam chose.'],
  ['CompletionClaim', decisions.CompletionClaimSchema, 'A completion claim no check backs.'],
  [
    'Suggestion',
    decisions.SuggestionSchema,
    'Something a decision use proposes; answered with `resolveSuggestion`.',
  ],
  ['TurnTone', decisions.TurnToneSchema, "The user's tone in a turn, judged in the background."],
  ['Urgency', decisions.UrgencySchema, "How urgently an item needs the user's attention."],
  ['NoticeLevel', NoticeLevelSchema, "How loud a notice is; `warning` is the spec's warning."],
  [
    'HookEntry',
    HookEntrySchema,
    'One hook command of `[[hooks.<Event>]]`; `timeout_secs` defaults to 600 (30 for UserPromptSubmit).',
  ],
  [
    'McpServerSettings',
    McpServerSettingsSchema,
    'One MCP server of `[mcp.servers.<name>]`: `command` (stdio) or `url` (HTTP).',
  ],
  ['CheckSettings', CheckSettingsSchema, 'A configured check of `[[verification.checks]]`.'],
  [
    'MessageOrigin',
    MessageOriginSchema,
    'Where a journaled message came from (for display; the model sees only content).',
  ],
]
const names = new Map<unknown, string>([
  ...NAMED.map(([name, schema]) => [schema, name] as const),
  [EngineEventSchema, 'EngineEvent (see Events)'],
])

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

// `described(…)` copies a schema to add its line, so shared types are also found by shape.
const shapeOf = (node: unknown) => JSON.stringify({ ...(node as object), description: undefined })
const namesByShape = new Map(NAMED.map(([name, schema]) => [shapeOf(schema), name]))

/** A short type expression for a schema: a shared type's name, or its structure. */
function typeOf(node: Node, top = false): string {
  const name = names.get(node) ?? namesByShape.get(shapeOf(node))
  if (name !== undefined && !top) return name
  if (node.const !== undefined) return JSON.stringify(node.const)
  if (node.enum !== undefined) return node.enum.map((value) => JSON.stringify(value)).join(' | ')
  if (node.oneOf !== undefined) return node.oneOf.map((branch) => typeOf(branch)).join(' | ')
  if (node.anyOf !== undefined) return node.anyOf.map((branch) => typeOf(branch)).join(' | ')
  switch (node.type) {
    case 'array':
      return `${wrap(typeOf(node.items ?? {}))}[]`
    case 'object': {
      if (node.properties !== undefined) {
        const required = new Set(node.required ?? [])
        const fields = Object.entries(node.properties).map(
          ([key, value]) => `${key}${required.has(key) ? '' : '?'}: ${typeOf(value)}`,
        )
        return `{ ${fields.join('; ')} }`
      }
      if (typeof node.additionalProperties === 'object')
        return `map<string, ${typeOf(node.additionalProperties)}>`
      return 'object'
    }
    case undefined:
      return 'JSON'
    default:
      return node.type
  }
}

const wrap = (type: string) => (type.includes(' | ') ? `(${type})` : type)

function constraints(node: Node): string {
  const notes: string[] = []
  if (node.minimum !== undefined) notes.push(`≥ ${node.minimum}`)
  if (node.maximum !== undefined) notes.push(`≤ ${node.maximum}`)
  if (node.minLength !== undefined) notes.push('non-empty')
  if (node.minItems !== undefined) notes.push(`at least ${node.minItems}`)
  return notes.length === 0 ? '' : ` (${notes.join(', ')})`
}

/** Renders a field table, leaving out `hidden` fields, and `hiddenWhenOptional` ones unless required. */
function fieldTable(
  node: Node,
  hidden: ReadonlySet<string>,
  hiddenWhenOptional: ReadonlySet<string> = new Set(),
): string {
  const required = new Set(node.required ?? [])
  const rows = Object.entries(node.properties ?? {})
    .filter(([key]) => !hidden.has(key) && !(hiddenWhenOptional.has(key) && !required.has(key)))
    .map(
      ([key, value]) =>
        `| \`${key}\` | \`${cell(typeOf(value))}\` | ${required.has(key) ? 'yes' : 'no'} | ${cell(`${value.description ?? ''}${constraints(value)}`.trim())} |`,
    )
  if (rows.length === 0) return 'No fields.\n'
  return ['| field | type | required | meaning |', '| --- | --- | --- | --- |', ...rows, ''].join('\n')
}

function tagged(
  schemas: Record<string, unknown>,
  hidden: readonly string[],
  hiddenWhenOptional: readonly string[],
) {
  return Object.entries(schemas)
    .map(([tag, schema]) => {
      const node = schema as Node
      const table = fieldTable(node, new Set(['type', ...hidden]), new Set(hiddenWhenOptional))
      return `### \`${tag}\`\n\n${node.description ?? ''}\n\n${table}`
    })
    .join('\n')
}

/** The header's table, then the persisted events (their fields are in Events) and the stamp. */
function logRecords(): string {
  const { header, ...persisted } = LogRecordSchemas
  const events = Object.keys(persisted)
    .map((tag) => `\`${tag}\``)
    .join(', ')
  return [
    `### \`header\`\n\n${(header as Node).description ?? ''}\n\n${fieldTable(header as Node, new Set(['type']))}`,
    '### Persisted events',
    '',
    `Every other line is a persisted event, with the fields listed under Events, plus \`id\` and \`at\` (ISO 8601 time written) and its scope: \`turnId\` (the turn it happened in) and \`agentId\` (the subagent it belongs to). These event types are journaled: ${events}. All other events are published only.`,
    '',
  ].join('\n')
}

function summary(schemas: Record<string, unknown>): string {
  const rows = Object.entries(schemas).map(
    ([tag, schema]) => `| \`${tag}\` | ${cell((schema as Node).description ?? '')} |`,
  )
  return ['| type | meaning |', '| --- | --- |', ...rows, ''].join('\n')
}

function sharedTypes(): string {
  return NAMED.map(([name, schema, meaning]) => {
    const node = schema as Node
    const heading = `### \`${name}\`\n\n${meaning}\n\n`
    if (node.properties !== undefined) return heading + fieldTable(node, new Set())
    if (node.oneOf !== undefined) {
      const variants = node.oneOf.map((branch) => {
        const fields = Object.entries(branch.properties ?? {}).filter(([key]) => key !== 'type')
        const required = new Set(branch.required ?? [])
        const shape = fields.map(([key, value]) => `${key}${required.has(key) ? '' : '?'}: ${typeOf(value)}`)
        const tag = JSON.stringify(branch.properties?.type?.const)
        return `- \`${cell(shape.length === 0 ? `{ type: ${tag} }` : `{ type: ${tag}; ${shape.join('; ')} }`)}\``
      })
      return `${heading}One of:\n\n${variants.join('\n')}\n`
    }
    return `${heading}\`${cell(typeOf(node, true))}\`\n`
  }).join('\n')
}

function settingsRows(node: Node, prefix: string): string[] {
  return Object.entries(node.properties ?? {}).flatMap(([key, value]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`
    if (value.properties !== undefined && !names.has(value)) {
      return settingsRows(value, path)
    }
    const fallback = value.default === undefined ? '—' : `\`${cell(JSON.stringify(value.default))}\``
    return [
      `| \`${path}\` | \`${cell(typeOf(value))}\` | ${fallback} | ${cell(`${value.description ?? ''}${constraints(value)}`.trim())} |`,
    ]
  })
}

function settings(): string {
  return [
    '| key | type | default | meaning |',
    '| --- | --- | --- | --- |',
    ...settingsRows(SettingsSchema as Node, ''),
    '',
  ].join('\n')
}

/** The generated sections of docs/protocol.md, by marker name. */
export function renderSections(): Record<string, string> {
  return {
    envelope: fieldTable(EventEnvelopeSchema as Node, new Set()),
    commands: `${summary(CommandSchemas)}\n${tagged(CommandSchemas, [], [])}`,
    events: `${summary(EventSchemas)}\n${tagged(EventSchemas, [], [])}`,
    'log-records': logRecords(),
    'shared-types': sharedTypes(),
    settings: settings(),
  }
}

/** Replaces each `<!-- generated:NAME -->…<!-- /generated:NAME -->` block of `doc` with fresh output. */
export function fillGenerated(doc: string): string {
  let result = doc
  for (const [name, body] of Object.entries(renderSections())) {
    const start = `<!-- generated:${name} -->`
    const end = `<!-- /generated:${name} -->`
    const from = result.indexOf(start)
    const to = result.indexOf(end)
    if (from === -1 || to === -1) throw new Error(`docs/protocol.md lacks the ${start} … ${end} block`)
    result = `${result.slice(0, from + start.length)}\n\n${body.trimEnd()}\n\n${result.slice(to)}`
  }
  return result
}
