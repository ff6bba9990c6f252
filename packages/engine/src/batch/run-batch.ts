import type { Action, Confinement } from '@z-engine/policy'
import type {
  ApprovalDecision,
  ApprovalRequest,
  ToolResultBlock,
  ToolResultContent,
  ToolStatus,
} from '@z-engine/protocol'
import type { Tool, ToolResult } from '@z-engine/tools'
import pLimit from 'p-limit'
import type { BatchCall, BatchDeps, BatchOutcome } from './batch-types.js'
import { planExecutionOrder } from './plan-order.js'
import { createProgressThrottle } from './progress-throttle.js'

/** The text a cancelled call returns (spec 000: every tool_use gets a result, even on cancel). */
export const CANCELLED_TEXT = 'cancelled by user'
/** The text a call the user denied returns, before any feedback. */
export const USER_DENIED_TEXT = 'The user denied this action.'

type Prepared =
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
    }

interface CallState {
  call: BatchCall
  prepared: Prepared
  result?: ToolResultBlock
  status?: ToolStatus
}

/** Whether a prepared call may change files when it runs (its tool's own verdict; unknown counts). */
function mayWrite(state: CallState): boolean {
  if (state.prepared.kind !== 'ready') return false
  try {
    return !state.prepared.tool.isReadOnly(state.prepared.input)
  } catch {
    return true
  }
}

/** Gives a call that will not run its one result, and tells the UI it finished. */
async function settle(state: CallState, status: ToolStatus, text: string, deps: BatchDeps): Promise<void> {
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
function appliedDiff(result: ToolResult): { path: string; unifiedDiff: string } | undefined {
  if (!result.ok) return undefined
  const details = result.output.details
  const path = details?.path
  const unifiedDiff = details?.unifiedDiff
  return typeof path === 'string' && typeof unifiedDiff === 'string' ? { path, unifiedDiff } : undefined
}

/** A result's text for the host (`toolFinished.output`): text blocks, images as `[image]`. */
function outputText(content: readonly ToolResultContent[]): string {
  return content.map((block) => (block.type === 'text' ? block.text : '[image]')).join('\n')
}

function textResult(toolUseId: string, text: string, isError: boolean): ToolResultBlock {
  return { type: 'tool_result', toolUseId, content: [{ type: 'text', text }], isError }
}

function conservativeAction(tool: Tool, input: Record<string, unknown>, deps: BatchDeps): Action {
  try {
    return tool.action(input, deps.actionCtx())
  } catch {
    // A tool whose mapping throws is treated as changing state: it will ask (or be refused in plan mode).
    return { type: 'other', toolName: tool.name, readOnly: false }
  }
}

function safeTitle(tool: Tool, input: Record<string, unknown>, deps: BatchDeps): string {
  try {
    return tool.title(input, deps.actionCtx())
  } catch {
    return tool.name
  }
}

async function prepare(
  call: BatchCall,
  deps: BatchDeps,
  batchId: string,
  signal: AbortSignal,
  /** An earlier call of the batch may write: a call's `check` cannot speak for how it will run. */
  earlierWrites = false,
): Promise<Prepared> {
  const { block } = call
  const tool = deps.tools.get(block.name)
  if (!tool) {
    const names = [...deps.tools.keys()].join(', ')
    return {
      kind: 'settled',
      status: 'error',
      text: `Error: there is no tool named '${block.name}'. Available tools: ${names}.`,
    }
  }
  if (call.parseError !== undefined) {
    return {
      kind: 'settled',
      status: 'error',
      text: `Error: the arguments for ${block.name} were not a valid JSON object (${call.parseError}). Send the call again with a JSON object that matches the tool's schema.`,
    }
  }
  const invalid = await deps.validate(tool.name, tool.inputSchema, block.input)
  if (invalid) return { kind: 'settled', status: 'error', text: `Error: ${invalid}` }

  const hook = await deps.preToolUse(tool.name, block.input, block.id)
  if (hook.stop !== undefined) {
    return {
      kind: 'settled',
      status: 'denied',
      text: `Not run: a PreToolUse hook stopped the turn (${hook.stop})`,
      stop: hook.stop,
    }
  }
  if (hook.blocked) {
    return { kind: 'settled', status: 'denied', text: `Blocked by a PreToolUse hook: ${hook.blocked.reason}` }
  }
  let input = block.input
  if (hook.updatedInput) {
    const invalidRewrite = await deps.validate(tool.name, tool.inputSchema, hook.updatedInput)
    if (invalidRewrite) {
      return {
        kind: 'settled',
        status: 'error',
        text: `Error: a PreToolUse hook rewrote the input badly: ${invalidRewrite}`,
      }
    }
    input = hook.updatedInput
  }

  const action = conservativeAction(tool, input, deps)
  if (action.type === 'execute') await deps.decideReady?.()
  let verdict = deps.decide(tool.name, action)
  let title = safeTitle(tool, input, deps)
  // A policy deny always wins; otherwise a hook's forced decision replaces the policy's.
  let decision = verdict.decision
  let reason = verdict.reason
  if (decision !== 'deny' && hook.permission) {
    decision = hook.permission.decision
    reason = hook.permission.reason ?? `decided by a PreToolUse hook (${decision})`
  }
  // The host's callback sees every call not denied yet, with that verdict, and has the last word.
  if (deps.canUseTool && decision !== 'deny') {
    const suggestion = hook.permission ? undefined : verdict.suggestion
    const host = await deps.canUseTool(
      {
        toolName: tool.name,
        input,
        toolUseId: block.id,
        agentId: deps.agentId ?? 'main',
        title,
        action,
        verdict: { decision, reason, ...(suggestion !== undefined ? { suggestion } : {}) },
      },
      signal,
    )
    switch (host.type) {
      case 'cancelled':
        return { kind: 'settled', status: 'cancelled', text: CANCELLED_TEXT }
      case 'deny':
        return { kind: 'settled', status: 'denied', text: `Permission denied: ${host.message}` }
      case 'ask':
        decision = 'ask'
        if (verdict.decision === 'allow') reason = 'the host asked for approval'
        break
      case 'allow': {
        if (host.updatedInput !== undefined) {
          const invalid = await deps.validate(tool.name, tool.inputSchema, host.updatedInput)
          if (invalid)
            return {
              kind: 'settled',
              status: 'error',
              text: `Error: canUseTool rewrote the input badly: ${invalid}`,
            }
          input = host.updatedInput
          // New input is a new call for the policy: its deny rules still hold.
          const updated = conservativeAction(tool, input, deps)
          if (updated.type === 'execute') await deps.decideReady?.()
          verdict = deps.decide(tool.name, updated)
          if (verdict.decision === 'deny')
            return { kind: 'settled', status: 'denied', text: `Permission denied: ${verdict.reason}` }
          title = safeTitle(tool, input, deps)
        }
        decision = 'allow'
        break
      }
      default: {
        const unreachable: never = host
        throw new Error(`unknown host verdict ${JSON.stringify(unreachable)}`)
      }
    }
  }
  const context = {
    ...(hook.additionalContext !== undefined ? { additionalContext: hook.additionalContext } : {}),
    ...(verdict.realPaths !== undefined ? { realPaths: verdict.realPaths } : {}),
  }
  // The tool-gate decision seam may only turn an Allow into an Ask (never allow, deny or change an Ask).
  const review =
    decision === 'allow'
      ? await deps.reviewAllowed?.({ toolName: tool.name, title, input }, signal)
      : undefined
  if (review !== undefined) {
    decision = 'ask'
    reason = review
  }
  switch (decision) {
    case 'deny':
      return { kind: 'settled', status: 'denied', text: `Permission denied: ${reason}` }
    case 'allow': {
      // An allow that holds because the command runs confined keeps that confinement, even when a
      // hook also allowed it; one the policy never gave (a hook overriding an ask) has none.
      const confinement = verdict.decision === 'allow' ? verdict.confinement : undefined
      return { kind: 'ready', tool, input, title, ...context, ...(confinement ? { confinement } : {}) }
    }
    case 'ask': {
      // A call that cannot run as given fails now, rather than asking the user to approve it; only
      // when no earlier call of the batch may write (which could make it apply by then).
      if (!earlierWrites && tool.check !== undefined) {
        const failure = await tool
          .check(
            input,
            deps.toolCtx(block.id, () => {}),
          )
          .catch(() => undefined)
        if (failure !== undefined) return { kind: 'settled', status: 'error', text: `Error: ${failure}` }
      }
      let preview: ApprovalRequest['preview']
      try {
        preview = await tool.preview(
          input,
          deps.toolCtx(block.id, () => {}),
        )
      } catch {
        preview = undefined
      }
      const suggestion = hook.permission || review !== undefined ? undefined : verdict.suggestion
      // PermissionRequest hooks answer in the user's place; a deny rule was already applied above.
      const answered = await deps.permissionRequest?.(tool.name, input, block.id, suggestion)
      if (answered?.stop !== undefined)
        return {
          kind: 'settled',
          status: 'denied',
          text: `Not run: a PermissionRequest hook stopped the turn (${answered.stop})`,
          stop: answered.stop,
        }
      const hookAnswer = answered?.decision
      if (hookAnswer?.behavior === 'deny') {
        const text = `Permission denied by a PermissionRequest hook${hookAnswer.message ? `: ${hookAnswer.message}` : '.'}`
        return {
          kind: 'settled',
          status: 'denied',
          text,
          ...(hookAnswer.interrupt ? { stop: 'a PermissionRequest hook denied with interrupt' } : {}),
        }
      }
      if (hookAnswer?.behavior === 'allow') {
        if (hookAnswer.updatedInput === undefined) return { kind: 'ready', tool, input, title, ...context }
        const invalid = await deps.validate(tool.name, tool.inputSchema, hookAnswer.updatedInput)
        if (invalid)
          return {
            kind: 'settled',
            status: 'error',
            text: `Error: a PermissionRequest hook rewrote the input badly: ${invalid}`,
          }
        // New input is a new call for the policy: its deny rules and protected paths still hold.
        const updated = conservativeAction(tool, hookAnswer.updatedInput, deps)
        if (updated.type === 'execute') await deps.decideReady?.()
        const again = deps.decide(tool.name, updated)
        if (again.decision === 'deny')
          return { kind: 'settled', status: 'denied', text: `Permission denied: ${again.reason}` }
        return {
          kind: 'ready',
          tool,
          input: hookAnswer.updatedInput,
          title: safeTitle(tool, hookAnswer.updatedInput, deps),
          ...(hook.additionalContext !== undefined ? { additionalContext: hook.additionalContext } : {}),
          ...(again.realPaths !== undefined ? { realPaths: again.realPaths } : {}),
        }
      }
      // An escalated Allow keeps the confinement the policy's allow relied on.
      const confinement =
        review !== undefined && verdict.decision === 'allow' ? verdict.confinement : undefined
      const approval: ApprovalRequest = {
        id: deps.newId('ap'),
        batchId,
        toolUseId: block.id,
        toolName: tool.name,
        title,
        reason,
        ...(deps.agentId !== undefined ? { agentId: deps.agentId } : {}),
        ...(preview !== undefined ? { preview } : {}),
        ...(suggestion !== undefined ? { suggestion } : {}),
      }
      return {
        kind: 'ready',
        tool,
        input,
        title,
        approval,
        ...context,
        ...(confinement ? { confinement } : {}),
        ...(review !== undefined ? { escalated: true } : {}),
      }
    }
    default: {
      const unreachable: never = decision
      throw new Error(`unknown decision ${String(unreachable)}`)
    }
  }
}

function resultContent(result: ToolResult): { content: ToolResultContent[]; isError: boolean } {
  if (result.ok) {
    const content =
      result.output.content.length > 0
        ? result.output.content
        : [{ type: 'text' as const, text: '(no output)' }]
    return { content, isError: false }
  }
  return { content: [{ type: 'text', text: `Error: ${result.error.message}` }], isError: true }
}

/**
 * Runs one batch (spec 000 "Tool batch"): check, gate, approvals (all asks together, any order),
 * then execution in call order with neighbouring concurrency-safe calls together. Every call gets
 * exactly one result, in order, on every path (cancellation included). Never throws.
 */
export async function runBatch(
  calls: BatchCall[],
  deps: BatchDeps,
  signal: AbortSignal,
): Promise<BatchOutcome> {
  const batchId = deps.newId('b')
  const states: CallState[] = []
  // A hook's `continue: false`: no further call of the batch runs, and the turn stops after it.
  let stop: string | undefined
  const stopped = (): Prepared => ({
    kind: 'settled',
    status: 'cancelled',
    text: `Not run: a hook stopped the turn (${stop})`,
  })
  for (const call of calls) {
    // Hooks run in call order so their side effects are predictable.
    const prepared: Prepared = signal.aborted
      ? { kind: 'settled', status: 'cancelled', text: CANCELLED_TEXT }
      : stop !== undefined
        ? stopped()
        : await prepare(call, deps, batchId, signal, states.some(mayWrite)).catch(
            (error: unknown): Prepared => ({
              kind: 'settled',
              status: 'error',
              text: `Error: ${error instanceof Error ? error.message : String(error)}`,
            }),
          )
    if (prepared.kind === 'settled' && prepared.stop !== undefined) stop = prepared.stop
    states.push({ call, prepared })
  }

  const asks = states.flatMap((state) =>
    state.prepared.kind === 'ready' && state.prepared.approval ? [state.prepared.approval] : [],
  )
  const answers: Map<string, ApprovalDecision> =
    asks.length > 0 && !signal.aborted ? await deps.requestApprovals(asks, signal) : new Map()

  for (const state of states) {
    const { prepared } = state
    if (prepared.kind === 'settled') {
      await settle(state, prepared.status, prepared.text, deps)
      continue
    }
    if (!prepared.approval) continue
    const answer = answers.get(prepared.approval.id)
    if (!answer || signal.aborted) {
      await settle(state, 'cancelled', CANCELLED_TEXT, deps)
      continue
    }
    switch (answer.type) {
      case 'deny': {
        const feedback = answer.feedback?.trim()
        const text = feedback ? `${USER_DENIED_TEXT} Feedback from the user: ${feedback}` : USER_DENIED_TEXT
        await settle(state, 'denied', text, deps)
        break
      }
      // An Ask the decision seam raised has nothing to persist: "always" answers allow this call only.
      case 'allowSession':
        if (!prepared.escalated)
          for (const rule of grantedRules(answer.rule, prepared.approval))
            await deps.grantRule(rule, 'session')
        break
      case 'allowProject':
        if (!prepared.escalated)
          for (const rule of grantedRules(answer.rule, prepared.approval))
            await deps.grantRule(rule, 'project')
        break
      case 'allowOnce':
        break
      default: {
        const unreachable: never = answer
        throw new Error(`unknown approval ${JSON.stringify(unreachable)}`)
      }
    }
  }

  const changedFiles: string[] = []
  let mutated = false
  const safe = states.map((state) => {
    // Calls that already have a result cost nothing; they never split a concurrent run.
    if (state.result !== undefined || state.prepared.kind !== 'ready') return true
    try {
      return state.prepared.tool.isConcurrencySafe(state.prepared.input)
    } catch {
      return false
    }
  })

  const execute = async (state: CallState): Promise<void> => {
    const { prepared, call } = state
    if (prepared.kind !== 'ready' || state.result) return
    const toolUseId = call.block.id
    if (signal.aborted) {
      await settle(state, 'cancelled', CANCELLED_TEXT, deps)
      return
    }
    if (stop !== undefined) {
      await settle(state, 'cancelled', `Not run: a hook stopped the turn (${stop})`, deps)
      return
    }
    const started = Date.now()
    await deps.emit({
      type: 'toolStarted',
      toolUseId,
      toolName: prepared.tool.name,
      title: prepared.title,
      input: prepared.input,
    })
    const throttle = createProgressThrottle((update) => {
      if (update.message !== undefined) {
        void deps.emit({
          type: 'toolProgress',
          toolUseId,
          progress: { type: 'status', message: update.message },
        })
      }
      if (update.output !== undefined) {
        void deps.emit({
          type: 'toolProgress',
          toolUseId,
          progress: { type: 'output', stream: 'stdout', text: update.output },
        })
      }
    })
    let result: ToolResult
    try {
      const ctx = deps.toolCtx(toolUseId, (update) => throttle.push(update))
      result = await prepared.tool.call(
        prepared.input,
        {
          ...ctx,
          ...(prepared.realPaths ? { decidedRealPaths: prepared.realPaths } : {}),
          ...(prepared.confinement ? { confinement: prepared.confinement } : {}),
        },
        signal,
      )
    } catch (error) {
      result = {
        ok: false,
        error: {
          code: 'internal',
          message: `${prepared.tool.name} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
        },
      }
    }
    throttle.flush()
    if (signal.aborted) {
      state.status = 'cancelled'
      state.result = textResult(toolUseId, CANCELLED_TEXT, true)
    } else {
      const { content, isError } = resultContent(result)
      state.status = isError ? 'error' : 'ok'
      if (result.ok) {
        changedFiles.push(...(result.output.changedFiles ?? []))
        if (
          (result.output.changedFiles ?? []).length > 0 ||
          (result.output.mutated ?? !prepared.tool.isReadOnly(prepared.input))
        )
          mutated = true
      }
      const extra: string[] = []
      if (prepared.additionalContext) extra.push(prepared.additionalContext)
      const post = await deps
        .postToolUse(prepared.tool.name, prepared.input, result, toolUseId)
        .catch(() => ({}))
      if ('additionalContext' in post && post.additionalContext) extra.push(post.additionalContext)
      if ('stop' in post && post.stop !== undefined) stop ??= post.stop
      // The after-call decision seam's notes go ahead of the result, as reminders.
      const notes = signal.aborted
        ? []
        : ((await deps
            .notesFor?.(
              {
                toolName: prepared.tool.name,
                input: prepared.input,
                resultText: outputText(content),
                isError,
              },
              signal,
            )
            .catch(() => [])) ?? [])
      const withExtra: ToolResultContent[] = [
        ...notes.map((text) => ({ type: 'text' as const, text })),
        ...content,
        ...extra.map((text) => ({ type: 'text' as const, text })),
      ]
      state.result = { type: 'tool_result', toolUseId, content: withExtra, isError }
    }
    const diff = signal.aborted ? undefined : appliedDiff(result)
    await deps.emit({
      type: 'toolFinished',
      toolUseId,
      toolName: prepared.tool.name,
      status: state.status ?? 'error',
      durationMs: Date.now() - started,
      output: outputText(state.result.content),
      ...(diff !== undefined ? { diff } : {}),
    })
  }

  const limit = pLimit(Math.max(1, deps.maxConcurrency))
  for (const group of planExecutionOrder(safe)) {
    if (group.type === 'alone') await execute(states[group.index]!)
    else await Promise.all(group.indices.map((index) => limit(() => execute(states[index]!))))
  }

  // Claude Code fires PostToolBatch once per batch, after every call resolved (not on a cancel).
  if (!signal.aborted && deps.postToolBatch !== undefined)
    await deps.postToolBatch(
      states.map((state) => ({
        tool_name: state.prepared.kind === 'ready' ? state.prepared.tool.name : state.call.block.name,
        tool_input: state.prepared.kind === 'ready' ? state.prepared.input : state.call.block.input,
        tool_use_id: state.call.block.id,
        ...(state.result !== undefined ? { tool_response: outputText(state.result.content) } : {}),
      })),
    )

  return {
    results: states.map((state) => state.result ?? textResult(state.call.block.id, CANCELLED_TEXT, true)),
    statuses: states.map((state) => state.status ?? 'cancelled'),
    changedFiles,
    mutated,
    ...(stop !== undefined ? { stop } : {}),
  }
}

/**
 * The rules an "always" answer grants: the suggestion's whole set when the answer took the
 * suggested rule (a compound line needs one per command), else just the rule the host sent.
 */
function grantedRules(rule: string, approval: ApprovalRequest): readonly string[] {
  const suggestion = approval.suggestion
  return suggestion?.rule === rule && suggestion.rules !== undefined ? suggestion.rules : [rule]
}
