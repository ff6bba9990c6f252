import type { Action, Confinement } from '@z-engine/policy'
import type { ApprovalRequest, ToolResultBlock, ToolResultContent, ToolStatus } from '@z-engine/protocol'
import type { Tool, ToolResult } from '@z-engine/tools'
import type { BatchCall, BatchDeps } from './batch-types.js'

/** The text a cancelled call returns (spec 000: every tool_use gets a result, even on cancel). */
export const CANCELLED_TEXT = 'cancelled by user'
/** The text a call the user denied returns, before any feedback. */
export const USER_DENIED_TEXT = 'The user denied this action.'

/** A call after its checks, hooks and gate: settled with a result already, or ready to run (maybe once approved). */
export type Prepared =
  | { kind: 'settled'; status: ToolStatus; text: string; stop?: string }
  | {
      kind: 'ready'
      tool: Tool
      input: Record<string, unknown>
      title: string
      approval?: ApprovalRequest
      additionalContext?: string
      /** The real paths the gate decided on, for the tool's open-time check. */
      realPaths?: Readonly<Record<string, string>>
      /** The confinement the policy's allow relied on (absent after a user approval). */
      confinement?: Confinement
      /** The tool-gate decision seam turned an Allow into this Ask: an answer grants no rule. */
      escalated?: boolean
      /** What runs instead when the user denies the approval: the parts allowed without asking. */
      ifDenied?: {
        input: Record<string, unknown>
        title: string
        /** Which parts the user's denial left out. */
        asked: string[]
        confinement?: Confinement
      }
    }

/** A settled call: it will not run, and this is its result. */
export type Settled = Extract<Prepared, { kind: 'settled' }>

/** One call of a batch as it goes: prepared, then its one result and status. */
export interface CallState {
  call: BatchCall
  prepared: Prepared
  result?: ToolResultBlock
  status?: ToolStatus
}

/** Whether a prepared call may change files when it runs (its tool's own verdict; unknown counts). */
export function mayWrite(state: CallState): boolean {
  if (state.prepared.kind !== 'ready') return false
  try {
    return !state.prepared.tool.isReadOnly(state.prepared.input)
  } catch {
    return true
  }
}

/** Gives a call that will not run its one result, and tells the UI it finished. */
export async function settle(
  state: CallState,
  status: ToolStatus,
  text: string,
  deps: BatchDeps,
): Promise<void> {
  state.status = status
  state.result = textResult(state.call.block.id, text, true)
  const readOnly = readOnlyOf(state, deps)
  await deps.emit({
    type: 'toolFinished',
    toolUseId: state.call.block.id,
    toolName: state.call.block.name,
    status,
    durationMs: 0,
    output: text,
    ...(readOnly !== undefined ? { readOnly } : {}),
  })
}

/** The tool's own read-only verdict on a call's input (what it was prepared with, else what the model sent). */
function readOnlyOf(state: CallState, deps: BatchDeps): boolean | undefined {
  const { prepared } = state
  const tool = prepared.kind === 'ready' ? prepared.tool : deps.tools.get(state.call.block.name)
  if (!tool) return undefined
  try {
    return tool.isReadOnly(prepared.kind === 'ready' ? prepared.input : state.call.block.input)
  } catch {
    return undefined
  }
}

/** The file change a successful call reports in its details (the file tools' `path` and `unifiedDiff`). */
export function appliedDiff(result: ToolResult): { path: string; unifiedDiff: string } | undefined {
  if (!result.ok) return undefined
  const details = result.output.details
  const path = details?.path
  const unifiedDiff = details?.unifiedDiff
  return typeof path === 'string' && typeof unifiedDiff === 'string' ? { path, unifiedDiff } : undefined
}

/** A result's text for the host (`toolFinished.output`): text blocks, images as `[image]`. */
export function outputText(content: readonly ToolResultContent[]): string {
  return content.map((block) => (block.type === 'text' ? block.text : '[image]')).join('\n')
}

/** A result of one text block. */
export function textResult(toolUseId: string, text: string, isError: boolean): ToolResultBlock {
  return { type: 'tool_result', toolUseId, content: [{ type: 'text', text }], isError }
}

/** A tool's action for the policy; a mapping that throws counts as changing state. */
export function conservativeAction(tool: Tool, input: Record<string, unknown>, deps: BatchDeps): Action {
  try {
    return tool.action(input, deps.actionCtx())
  } catch {
    // A tool whose mapping throws is treated as changing state: it will ask (or be refused in plan mode).
    return { type: 'other', toolName: tool.name, readOnly: false }
  }
}

/** A call's title, or the tool's name when the title throws. */
export function safeTitle(tool: Tool, input: Record<string, unknown>, deps: BatchDeps): string {
  try {
    return tool.title(input, deps.actionCtx())
  } catch {
    return tool.name
  }
}

/** A tool's result as result content (an empty success says so). */
export function resultContent(result: ToolResult): { content: ToolResultContent[]; isError: boolean } {
  if (result.ok) {
    const content =
      result.output.content.length > 0
        ? result.output.content
        : [{ type: 'text' as const, text: '(no output)' }]
    return { content, isError: false }
  }
  return { content: [{ type: 'text', text: `Error: ${result.error.message}` }], isError: true }
}
