import type { Decision } from '@z-engine/policy'
import type { ApprovalRequest } from '@z-engine/protocol'
import type { Tool } from '@z-engine/tools'
import type { BatchCall, BatchDeps, PreToolUseVerdict } from './batch-types.js'
import { CANCELLED_TEXT, conservativeAction, type Prepared, type Settled, safeTitle } from './call-state.js'
import { decideParts } from './gate-parts.js'

/** One call on its way through the gate: its tool, input, the policy's verdict and the decision so far. */
interface Gated {
  call: BatchCall
  tool: Tool
  input: Record<string, unknown>
  hook: PreToolUseVerdict
  verdict: Decision
  title: string
  decision: Decision['decision']
  reason: string
  /** Parts of the call a rule denied (left out), for its result. */
  partsNote?: string
  /** The parts allowed without asking, run when the user denies the ask. */
  ifDenied?: PartsIfDenied
}

type PartsIfDenied = NonNullable<Extract<Prepared, { kind: 'ready' }>['ifDenied']>

/** Where a call is prepared: its batch, what it may wait on, and whether an earlier call may write. */
interface PrepareContext {
  deps: BatchDeps
  batchId: string
  signal: AbortSignal
  /** An earlier call of the batch may write: a call's `check` cannot speak for how it will run. */
  earlierWrites: boolean
}

/**
 * Prepares one call: the tool exists, its arguments parse and match the schema, PreToolUse hooks
 * may block, rewrite or decide, then the gate (policy, the host's callback, the tool-gate seam)
 * settles it, makes it ready, or makes it ready behind an approval.
 */
export async function prepareCall(
  call: BatchCall,
  deps: BatchDeps,
  batchId: string,
  signal: AbortSignal,
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
  return gateCall(call, tool, input, hook, { deps, batchId, signal, earlierWrites })
}

/** The gate: the policy's verdict, a hook's forced decision, the host's callback, the tool-gate seam. */
async function gateCall(
  call: BatchCall,
  tool: Tool,
  input: Record<string, unknown>,
  hook: PreToolUseVerdict,
  context: PrepareContext,
): Promise<Prepared> {
  const { deps, signal } = context
  const whole = conservativeAction(tool, input, deps)
  if (whole.type === 'execute') await deps.decideReady?.()
  // A call of parts (Verify's checks) is decided part by part and narrowed to what no rule denies.
  const parts = decideParts(tool, input, deps)
  if (parts?.kind === 'denied')
    return { kind: 'settled', status: 'denied', text: `Permission denied: ${parts.text}` }
  const narrowed = parts?.input ?? input
  const action = parts === undefined ? whole : conservativeAction(tool, narrowed, deps)
  const verdict = parts?.verdict ?? deps.decide(tool.name, action)
  let gated: Gated = {
    call,
    tool,
    input: narrowed,
    hook,
    verdict,
    title: safeTitle(tool, narrowed, deps),
    decision: verdict.decision,
    reason: verdict.reason,
    ...(parts?.note !== undefined ? { partsNote: parts.note } : {}),
    ...(parts?.ifDenied !== undefined
      ? {
          ifDenied: {
            ...parts.ifDenied,
            title: safeTitle(tool, parts.ifDenied.input, deps),
          },
        }
      : {}),
  }
  // A policy deny always wins; otherwise a hook's forced decision replaces the policy's.
  if (gated.decision !== 'deny' && hook.permission) {
    gated.decision = hook.permission.decision
    gated.reason = hook.permission.reason ?? `decided by a PreToolUse hook (${gated.decision})`
  }
  // The host's callback sees every call not denied yet, with that verdict, and has the last word.
  if (deps.canUseTool && gated.decision !== 'deny') {
    const asked = await askHost(gated, gated.decision, action, context)
    if ('kind' in asked) return asked
    gated = asked
  }
  const notes = [hook.additionalContext, gated.partsNote].filter((text) => text !== undefined)
  const extra = {
    ...(notes.length > 0 ? { additionalContext: notes.join('\n\n') } : {}),
    ...(gated.verdict.realPaths !== undefined ? { realPaths: gated.verdict.realPaths } : {}),
  }
  // The tool-gate decision seam may only turn an Allow into an Ask (never allow, deny or change an Ask).
  const review =
    gated.decision === 'allow'
      ? await deps.reviewAllowed?.({ toolName: tool.name, title: gated.title, input: gated.input }, signal)
      : undefined
  if (review !== undefined) {
    gated.decision = 'ask'
    gated.reason = review
  }
  switch (gated.decision) {
    case 'deny':
      return { kind: 'settled', status: 'denied', text: `Permission denied: ${gated.reason}` }
    case 'allow': {
      // An allow that holds because the command runs confined keeps that confinement, even when a
      // hook also allowed it; one the policy never gave (a hook overriding an ask) has none.
      const confinement = gated.verdict.decision === 'allow' ? gated.verdict.confinement : undefined
      return {
        kind: 'ready',
        tool,
        input: gated.input,
        title: gated.title,
        ...extra,
        ...(confinement ? { confinement } : {}),
      }
    }
    case 'ask':
      return prepareAsk(gated, review, extra, context)
    default: {
      const unreachable: never = gated.decision
      throw new Error(`unknown decision ${String(unreachable)}`)
    }
  }
}

/** The host's `canUseTool`: it may cancel, deny, ask, or allow (with new input the policy decides again). */
async function askHost(
  gated: Gated,
  /** The decision so far: the host is never asked about a call already denied. */
  decision: 'allow' | 'ask',
  action: ReturnType<typeof conservativeAction>,
  context: PrepareContext,
): Promise<Gated | Settled> {
  const { deps, signal } = context
  const { tool, hook, verdict } = gated
  const suggestion = hook.permission ? undefined : verdict.suggestion
  const host = await deps.canUseTool!(
    {
      toolName: tool.name,
      input: gated.input,
      toolUseId: gated.call.block.id,
      agentId: deps.agentId ?? 'main',
      title: gated.title,
      action,
      verdict: {
        decision,
        reason: gated.reason,
        ...(suggestion !== undefined ? { suggestion } : {}),
      },
    },
    signal,
  )
  switch (host.type) {
    case 'cancelled':
      return { kind: 'settled', status: 'cancelled', text: CANCELLED_TEXT }
    case 'deny':
      return { kind: 'settled', status: 'denied', text: `Permission denied: ${host.message}` }
    case 'ask':
      return {
        ...gated,
        decision: 'ask',
        reason: verdict.decision === 'allow' ? 'the host asked for approval' : gated.reason,
      }
    case 'allow': {
      if (host.updatedInput === undefined) return { ...gated, decision: 'allow' }
      const invalid = await deps.validate(tool.name, tool.inputSchema, host.updatedInput)
      if (invalid)
        return {
          kind: 'settled',
          status: 'error',
          text: `Error: canUseTool rewrote the input badly: ${invalid}`,
        }
      const input = host.updatedInput
      // New input is a new call for the policy: its deny rules still hold.
      const updated = conservativeAction(tool, input, deps)
      if (updated.type === 'execute') await deps.decideReady?.()
      const again = deps.decide(tool.name, updated)
      if (again.decision === 'deny')
        return { kind: 'settled', status: 'denied', text: `Permission denied: ${again.reason}` }
      return { ...gated, input, verdict: again, title: safeTitle(tool, input, deps), decision: 'allow' }
    }
    default: {
      const unreachable: never = host
      throw new Error(`unknown host verdict ${JSON.stringify(unreachable)}`)
    }
  }
}

/**
 * An ask: a call that cannot run as given fails now; PermissionRequest hooks may answer in the
 * user's place; otherwise the call waits on an approval request with its preview and suggestion.
 */
async function prepareAsk(
  gated: Gated,
  review: string | undefined,
  extra: { additionalContext?: string; realPaths?: Readonly<Record<string, string>> },
  context: PrepareContext,
): Promise<Prepared> {
  const { deps } = context
  const { tool, input, title, hook, verdict, reason } = gated
  const { block } = gated.call
  // A call that cannot run as given fails now, rather than asking the user to approve it; only
  // when no earlier call of the batch may write (which could make it apply by then).
  if (!context.earlierWrites && tool.check !== undefined) {
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
    if (hookAnswer.updatedInput === undefined) return { kind: 'ready', tool, input, title, ...extra }
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
  const confinement = review !== undefined && verdict.decision === 'allow' ? verdict.confinement : undefined
  const approval: ApprovalRequest = {
    id: deps.newId('ap'),
    batchId: context.batchId,
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
    ...extra,
    ...(confinement ? { confinement } : {}),
    ...(review !== undefined ? { escalated: true } : {}),
    ...(gated.ifDenied !== undefined ? { ifDenied: gated.ifDenied } : {}),
  }
}
