import type { McpResourceEntry } from '@z-engine/engine/mcp'
import type { ApprovalRequest } from '@z-engine/protocol'
import type { SessionRow } from '../sessions/session-listing.js'
import { type ApprovalUi, INITIAL_APPROVAL_UI } from './approval-panel.js'
import type { CompletionRow } from './composer.js'
import type { EarlyInput } from './early-keys.js'
import { matchFiles } from './file-index.js'
import { EMPTY_HISTORY, type HistoryEntry, historyOf, type InputHistory } from './input-history.js'
import { resourceRows } from './mcp-completions.js'
import { INITIAL_PLAN_UI, type PlanUi } from './plan-panel.js'
import { bufferOf, EMPTY_BUFFER, type PromptBuffer, tokenAtCursor } from './prompt-buffer.js'
import { INITIAL_QUESTION_UI, type QuestionUi } from './question-panel.js'
import type { RewindStep } from './rewind-picker.js'
import { completions, type SlashCommand } from './slash-commands.js'
import type { TrustSummary } from './trust-panel.js'
import type { ChatState, RewindConflictChoice } from './view-model.js'

/** A picker shown in place of the composer: `/rewind` (two steps) or `/resume`. */
export type Overlay =
  | ({ kind: 'rewind' } & RewindStep)
  | { kind: 'resume'; rows: SessionRow[] | 'loading'; index: number }
  /** After a code rewind left overlapping hunks: keep each such file, or revert it whole. */
  | { kind: 'conflict'; queue: RewindConflictChoice[]; index: number }

/** The keyboard state of the screen, kept in a ref so keys arriving between renders never race. */
export interface InputUi {
  prompt: PromptBuffer
  /** The project's files for `@` completion, listed the first time `@` is typed. */
  files: string[] | 'loading' | undefined
  /** The MCP servers' resources for `@server:uri` completion, listed with the files (again while none). */
  resources: McpResourceEntry[] | 'loading' | undefined
  history: InputHistory
  completion: number
  approval: ApprovalUi
  question: QuestionUi
  plan: PlanUi
  /** The trust prompt: open (with its summary once read), or closed. */
  trust: { open: boolean; summary?: TrustSummary; asked?: boolean }
  /** Cards answered here whose `approvalResolved` has not arrived yet. */
  answered: Set<string>
  /** The request each prompt's state belongs to: a new request starts its prompt afresh. */
  owners: { plan?: string; question?: string; approval?: string }
  ctrlCAt: number | undefined
  /** When Esc was last pressed on an empty idle prompt (a second press opens `/rewind`). */
  escAt: number | undefined
  overlay: Overlay | undefined
  /** The calls whose whole output Ctrl-O already printed. */
  expanded: Set<string>
}

/** The keyboard state a chat starts with: what the early prompt box took, the project's earlier prompts. */
export function initialInputUi(
  history: readonly HistoryEntry[],
  typed: Omit<EarlyInput, 'quit'> | undefined,
): InputUi {
  return {
    prompt: typed !== undefined && typed.prefix !== '' ? bufferOf(typed.prefix) : EMPTY_BUFFER,
    files: undefined,
    resources: undefined,
    history: history.length > 0 ? historyOf(history) : EMPTY_HISTORY,
    completion: 0,
    approval: INITIAL_APPROVAL_UI,
    question: INITIAL_QUESTION_UI,
    plan: INITIAL_PLAN_UI,
    trust: { open: false },
    answered: new Set(),
    owners: {},
    ctrlCAt: typed?.ctrlCAt,
    escAt: undefined,
    overlay: undefined,
    expanded: new Set(),
  }
}

/** The approval requests not answered here yet, in arrival order. */
export function pendingApprovals(chat: ChatState, ui: InputUi): ApprovalRequest[] {
  return chat.approvals.filter((request) => !ui.answered.has(request.id))
}

/** The approval card that has the focus among `pending` (the last when the focus is past the end). */
export function focusedApproval(
  pending: readonly ApprovalRequest[],
  ui: InputUi,
): ApprovalRequest | undefined {
  return pending[Math.min(ui.approval.focus, pending.length - 1)]
}

/**
 * Starts a prompt's keyboard state afresh when the request it belonged to is gone (answered
 * elsewhere, or cancelled with its turn), so half-typed feedback never lands on another request.
 */
export function syncOwners(
  ui: InputUi,
  plan: string | undefined,
  question: string | undefined,
  approval: string | undefined,
): void {
  if (ui.owners.plan !== plan) ui.plan = INITIAL_PLAN_UI
  if (ui.owners.question !== question) ui.question = INITIAL_QUESTION_UI
  if (ui.owners.approval !== approval) ui.approval = { focus: ui.approval.focus, option: 0 }
  ui.owners = {
    ...(plan !== undefined ? { plan } : {}),
    ...(question !== undefined ? { question } : {}),
    ...(approval !== undefined ? { approval } : {}),
  }
}

/** How many `@` file completions are offered. */
const FILE_ROWS = 50

/** The completion list for the prompt: `/` commands while a command name is typed, `@` files. */
export function completionRows(ui: InputUi, commands: readonly SlashCommand[]): CompletionRow[] {
  const file = tokenAtCursor(ui.prompt)
  if (file !== undefined) {
    const query = file.token.slice(1)
    const files = Array.isArray(ui.files)
      ? matchFiles(ui.files, query, FILE_ROWS).map((path) => ({ key: path, label: `@${path}` }))
      : []
    const resources = Array.isArray(ui.resources) ? resourceRows(ui.resources, query, FILE_ROWS) : []
    // `@server:` names a resource: those first once a colon is typed.
    return query.includes(':') ? [...resources, ...files] : [...files, ...resources]
  }
  return completions(ui.prompt.text, commands).map((command) => ({
    key: command.name,
    label: `/${command.name}`,
    ...(command.argumentHint !== undefined ? { hint: command.argumentHint } : {}),
    description: command.description,
  }))
}
