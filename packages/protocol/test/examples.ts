/** A valid example of every command, event and log record; the mapped types force one per tag. */
import type {
  AgentInfo,
  ApprovalRequest,
  CheckRecord,
  CommandOf,
  CommandType,
  EventOf,
  EventType,
  LogRecordOf,
  LogRecordType,
  Message,
  TaskView,
} from '../src/index.js'
import {
  LOG_FORMAT_VERSION,
  PERSISTED_EVENT_TYPES,
  PROTOCOL_VERSION,
  ZERO_COST,
  ZERO_USAGE,
} from '../src/index.js'

const at = '2026-11-29T22:00:00.000Z'

export const message: Message = {
  id: 'm1',
  role: 'assistant',
  content: [
    { type: 'thinking', thinking: 'plan', signature: 'sig' },
    { type: 'redacted_thinking', data: 'opaque' },
    { type: 'text', text: 'Running the tests.' },
    { type: 'tool_use', id: 'tu1', name: 'Bash', input: { command: 'npm test' } },
  ],
}

const toolResults: Message = {
  id: 'm2',
  role: 'user',
  content: [
    {
      type: 'tool_result',
      toolUseId: 'tu1',
      isError: false,
      content: [
        { type: 'text', text: 'ok' },
        { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
      ],
    },
  ],
}

const approval: ApprovalRequest = {
  id: 'ap1',
  batchId: 'b1',
  toolUseId: 'tu1',
  toolName: 'Bash',
  title: 'Allow Bash to run npm test?',
  reason: 'not proven read-only',
  preview: { type: 'command', command: 'npm test', cwd: '/p' },
  suggestion: { rule: 'Bash(npm test:*)', scope: 'project' },
}

const agent: AgentInfo = {
  id: 'a1',
  parentId: 'main',
  agentType: 'explore',
  description: 'find the parser',
  status: 'done',
  background: false,
  depth: 1,
  usage: ZERO_USAGE,
  cost: ZERO_COST,
  worktree: {
    type: 'pending',
    path: '/p/.z-engine/worktrees/a1',
    branch: 'zengine/a1',
    summary: '1 file',
    changedFiles: ['a.ts'],
  },
  result: 'found it',
}

const check: CheckRecord = {
  id: 'c1',
  checkId: 'npm-test',
  kind: 'test',
  command: 'npm test',
  exitCode: 0,
  passed: true,
  tests: { passed: 3, failed: 0, skipped: 1 },
  durationMs: 1200,
  outputArtifact: 'artifacts/c1.txt',
  fingerprintBefore: 'f1',
  fingerprintAfter: 'f1',
  at,
}

const marker = {
  id: 'k1',
  trigger: 'manual',
  tokensBefore: 150000,
  tokensAfter: 20000,
  messagesSummarized: 40,
  focus: 'tests',
} as const
const view: TaskView = {
  id: 'v1',
  keptMessageIds: ['m1', 'm2'],
  restored: false,
  indexMessage: { id: 'ix', role: 'user', content: [{ type: 'text', text: 'index' }] },
}
const question = {
  id: 'q1',
  toolUseId: 'tu2',
  questions: [
    {
      question: 'Which DB?',
      header: 'DB',
      options: [{ label: 'SQLite' }, { label: 'Postgres', description: 'server' }],
      multiSelect: false,
    },
    {
      question: 'Install kit@acme?',
      header: 'Install',
      options: [{ label: 'Yes' }, { label: 'No' }],
      multiSelect: false,
      freeText: false,
    },
  ],
}

export const COMMANDS: { [T in CommandType]: CommandOf<T> } = {
  submit: {
    type: 'submit',
    text: 'fix the failing test',
    attachments: [{ type: 'image', source: { type: 'url', url: 'https://x/y.png' } }],
  },
  steer: { type: 'steer', text: 'also update the docs' },
  cancel: { type: 'cancel' },
  interrupt: { type: 'interrupt' },
  resolveApproval: {
    type: 'resolveApproval',
    approvalId: 'ap1',
    decision: { type: 'allowSession', rule: 'Bash(npm test:*)' },
  },
  answerQuestion: {
    type: 'answerQuestion',
    questionId: 'q1',
    response: { type: 'answered', answers: [{ question: 'Which DB?', selected: ['SQLite'] }] },
  },
  resolvePlan: { type: 'resolvePlan', planId: 'p1', decision: { type: 'approve', mode: 'acceptEdits' } },
  setMode: { type: 'setMode', mode: 'plan' },
  setModel: { type: 'setModel', model: 'claude-sonnet-4-5' },
  setTitle: { type: 'setTitle', title: 'Fix tests' },
  runCommand: { type: 'runCommand', name: 'compact', args: 'keep the API notes' },
  runShell: { type: 'runShell', command: 'git status' },
  trustWorkspace: { type: 'trustWorkspace', trusted: true },
  resolveSuggestion: { type: 'resolveSuggestion', suggestionId: 's1', accepted: false },
  includeFullHistory: { type: 'includeFullHistory' },
  rewind: { type: 'rewind', messageId: 'm0', scope: 'both' },
  undoRewind: { type: 'undoRewind' },
  compact: { type: 'compact', focus: 'the parser work' },
  killJob: { type: 'killJob', jobId: 'j1' },
  applyAgentChanges: { type: 'applyAgentChanges', agentId: 'a1' },
  discardAgentChanges: { type: 'discardAgentChanges', agentId: 'a1' },
  reloadSettings: { type: 'reloadSettings' },
}

export const EVENTS: { [T in EventType]: EventOf<T> } = {
  sessionOpened: {
    type: 'sessionOpened',
    sessionId: 's1',
    projectRoot: '/p',
    mode: 'default',
    model: 'claude-sonnet-4-5',
    resumed: false,
    protocolVersion: PROTOCOL_VERSION,
    forkedFrom: { sessionId: 's0', messageId: 'm0' },
  },
  turnStarted: { type: 'turnStarted', turnId: 't1', messageId: 'm0' },
  turnFinished: {
    type: 'turnFinished',
    turnId: 't1',
    outcome: { type: 'budgetExhausted', budget: 'maxTurns' },
    usage: ZERO_USAGE,
    cost: ZERO_COST,
    badge: { type: 'failed', checkId: 'c1', reason: '2 tests failed' },
    mutated: true,
    text: 'Fixed the bug; 2 tests still fail.',
  },
  usageUpdated: {
    type: 'usageUpdated',
    usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 100, cacheWriteTokens: 0 },
    cost: { ...ZERO_COST, totalUsd: 0.01 },
    sessionUsage: ZERO_USAGE,
    sessionCost: ZERO_COST,
    contextTokens: 1200,
    contextWindow: 200000,
  },
  retrying: { type: 'retrying', attempt: 1, maxAttempts: 5, delayMs: 2000, reason: 'overloaded (529)' },
  textStart: { type: 'textStart', id: 'p1' },
  textDelta: { type: 'textDelta', id: 'p1', delta: 'Hel' },
  textEnd: { type: 'textEnd', id: 'p1' },
  thinkingStart: { type: 'thinkingStart', id: 'p0' },
  thinkingDelta: { type: 'thinkingDelta', id: 'p0', delta: 'let me see' },
  thinkingEnd: { type: 'thinkingEnd', id: 'p0' },
  messageRecorded: { type: 'messageRecorded', message: toolResults, origin: 'toolResults' },
  steeringQueued: { type: 'steeringQueued', text: 'also docs' },
  toolStarted: {
    type: 'toolStarted',
    toolUseId: 'tu1',
    toolName: 'Bash',
    title: 'Run npm test',
    input: { command: 'npm test' },
  },
  toolProgress: {
    type: 'toolProgress',
    toolUseId: 'tu1',
    progress: { type: 'output', stream: 'stdout', text: 'PASS a.test.ts\n' },
  },
  toolFinished: {
    type: 'toolFinished',
    toolUseId: 'tu1',
    toolName: 'Bash',
    status: 'denied',
    durationMs: 0,
    summary: 'The user denied this action',
    output: 'The user denied this action.',
  },
  approvalRequested: { type: 'approvalRequested', request: approval },
  approvalResolved: {
    type: 'approvalResolved',
    approvalId: 'ap1',
    decision: { type: 'deny', feedback: 'use pnpm' },
  },
  questionAsked: { type: 'questionAsked', question },
  questionAnswered: { type: 'questionAnswered', questionId: 'q1', response: { type: 'dismissed' } },
  planProposed: { type: 'planProposed', plan: { id: 'p1', toolUseId: 'tu3', markdown: '1. do it' } },
  planResolved: {
    type: 'planResolved',
    planId: 'p1',
    decision: { type: 'reject', feedback: 'smaller steps' },
  },
  todosUpdated: {
    type: 'todosUpdated',
    todos: [{ content: 'Run tests', status: 'in_progress', activeForm: 'Running tests' }],
  },
  modeChanged: { type: 'modeChanged', mode: 'bypass' },
  modelChanged: { type: 'modelChanged', model: 'gpt-5' },
  titleChanged: { type: 'titleChanged', title: 'Fix tests' },
  agentUpdated: { type: 'agentUpdated', agent },
  jobUpdated: {
    type: 'jobUpdated',
    job: {
      id: 'j1',
      kind: 'shell',
      description: 'npm run dev',
      status: 'exited',
      exitCode: 0,
      startedAt: at,
      endedAt: at,
    },
  },
  checkRecorded: { type: 'checkRecorded', record: check },
  checkpointCreated: {
    type: 'checkpointCreated',
    checkpoint: { id: 'cp1', messageId: 'm0', commit: 'abc123', turnId: 't1' },
  },
  rewound: { type: 'rewound', messageId: 'm0', scope: 'code', restoredFiles: ['a.ts'], checkpointId: 'cp1' },
  rewindPreviewed: {
    type: 'rewindPreviewed',
    messageId: 'm0',
    scope: 'both',
    restoreFiles: ['a.ts'],
    skippedFiles: ['b.ts'],
    leftAloneFiles: ['notes.md'],
    removedMessageIds: ['m0', 'm1'],
    checkpointId: 'cp1',
  },
  rewindUndone: { type: 'rewindUndone', restoredFiles: ['a.ts'], skippedFiles: [] },
  compactionStarted: { type: 'compactionStarted', trigger: 'auto' },
  compacted: {
    type: 'compacted',
    marker,
    summary: { id: 'sum', role: 'user', content: [{ type: 'text', text: 'summary' }] },
    firstKeptMessageId: 'm9',
  },
  commandOutput: { type: 'commandOutput', name: 'cost', markdown: '**$0.12**' },
  trustRequired: { type: 'trustRequired', projectRoot: '/p', categories: ['hooks', 'mcp'] },
  notice: {
    type: 'notice',
    level: 'warning',
    message: 'No sandbox backend; commands run unconfined.',
    code: 'sandbox_unavailable',
  },
  routeChosen: { type: 'routeChosen', route: { reason: 'small edit', effort: 'low' } },
  taskViewApplied: { type: 'taskViewApplied', view },
  completionClaimUnchecked: {
    type: 'completionClaimUnchecked',
    claim: { text: 'All tests pass.', messageId: 'm1' },
  },
  suggested: {
    type: 'suggested',
    suggestion: { id: 's1', kind: 'rule', text: 'Allow Bash(npm test:*) in this project?' },
  },
  suggestionResolved: { type: 'suggestionResolved', suggestionId: 's1', accepted: true },
  turnToneJudged: { type: 'turnToneJudged', turnId: 't1', tone: 'frustrated' },
  urgencyScored: { type: 'urgencyScored', urgency: { itemId: 'ap1', kind: 'approval', score: 0.9 } },
  decisionTraced: {
    type: 'decisionTraced',
    trace: {
      id: 'dt1',
      seam: 'toolGate',
      feature: 'decisions_review_call',
      mode: 'on',
      outcome: 'advice',
      durationMs: 120,
      detail: 'ask: the command deletes a directory outside the task',
    },
  },
}

const stamp = { id: 'r1', at, turnId: 't1' }

/** One valid record per type: the header, and each persisted event with its stamp. */
export const LOG_RECORDS = {
  header: {
    type: 'header',
    id: 'r0',
    at,
    formatVersion: LOG_FORMAT_VERSION,
    sessionId: 's1',
    projectRoot: '/p',
    createdAt: at,
    parent: { sessionId: 's0', messageId: 'm0' },
  },
  ...Object.fromEntries(PERSISTED_EVENT_TYPES.map((type) => [type, { ...EVENTS[type], ...stamp }])),
  approvalRequested: { ...EVENTS.approvalRequested, ...stamp, agentId: 'a1' },
} as { [T in LogRecordType]: LogRecordOf<T> }
