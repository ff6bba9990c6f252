import type { Action, Decision } from '@z-engine/policy'

/** One call as the host's `canUseTool` sees it: after hooks and the policy, with the policy's verdict. */
export interface ToolPermissionRequest {
  toolName: string
  /** The input the call would run with (after any PreToolUse hook rewrote it). */
  input: Record<string, unknown>
  toolUseId: string
  /** `main`, or the subagent making the call. */
  agentId: string
  /** A short label such as `Edit src/main.ts`. */
  title: string
  /** What the call would do, in the policy's terms. */
  action: Action
  /** The policy's verdict (and a PreToolUse hook's forced one): denied calls never reach the callback. */
  verdict: { decision: 'allow' | 'ask'; reason: string; suggestion?: Decision['suggestion'] }
}

/** What `canUseTool` answers: run it (optionally with new input), refuse it with a message, or ask the user. */
export type ToolPermissionResult =
  | { behavior: 'allow'; updatedInput?: Record<string, unknown> }
  | { behavior: 'deny'; message: string }
  | { behavior: 'ask' }

/**
 * The host's permission callback. It sees every call the hooks and the policy did not deny; a throw,
 * a malformed answer or no answer within the timeout denies the call. `signal` aborts with the turn.
 */
export type CanUseTool = (
  request: ToolPermissionRequest,
  options: { signal: AbortSignal },
) => Promise<ToolPermissionResult> | ToolPermissionResult

/** The default time `canUseTool` has to answer before the call is denied. */
export const CAN_USE_TOOL_TIMEOUT_MS = 300_000

/** The host's answer, checked: anything but a well-formed allow, deny or ask is a deny. */
export type HostVerdict =
  | { type: 'allow'; updatedInput?: Record<string, unknown> }
  | { type: 'deny'; message: string }
  | { type: 'ask' }
  | { type: 'cancelled' }

/** Asks the host's callback about one call, bounded by `timeoutMs` and the turn's signal. Never throws. */
export async function consultHost(
  canUseTool: CanUseTool,
  request: ToolPermissionRequest,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<HostVerdict> {
  if (signal.aborted) return { type: 'cancelled' }
  const controller = new AbortController()
  const onAbort = () => controller.abort(signal.reason)
  signal.addEventListener('abort', onAbort, { once: true })
  let timer: ReturnType<typeof setTimeout> | undefined
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs)
  })
  const aborted = new Promise<'aborted'>((resolve) => {
    controller.signal.addEventListener('abort', () => resolve('aborted'), { once: true })
  })
  try {
    const answer = await Promise.race([
      Promise.resolve().then(() => canUseTool(request, { signal: controller.signal })),
      timedOut,
      aborted,
    ])
    if (answer === 'aborted') return { type: 'cancelled' }
    if (answer === 'timeout') {
      controller.abort(new Error('canUseTool timed out'))
      return { type: 'deny', message: `canUseTool did not answer within ${Math.round(timeoutMs / 1000)}s` }
    }
    return checked(answer)
  } catch (error) {
    if (signal.aborted) return { type: 'cancelled' }
    return {
      type: 'deny',
      message: `canUseTool failed: ${error instanceof Error ? error.message : String(error)}`,
    }
  } finally {
    clearTimeout(timer)
    signal.removeEventListener('abort', onAbort)
  }
}

function checked(answer: unknown): HostVerdict {
  const value = answer as Partial<ToolPermissionResult> | undefined
  switch (value?.behavior) {
    case 'allow': {
      const updated = (value as { updatedInput?: unknown }).updatedInput
      if (updated === undefined) return { type: 'allow' }
      if (typeof updated === 'object' && updated !== null && !Array.isArray(updated))
        return { type: 'allow', updatedInput: updated as Record<string, unknown> }
      return { type: 'deny', message: 'canUseTool returned an updatedInput that is not an object' }
    }
    case 'deny': {
      const message = (value as { message?: unknown }).message
      return {
        type: 'deny',
        message: typeof message === 'string' && message !== '' ? message : 'denied by the host',
      }
    }
    case 'ask':
      return { type: 'ask' }
    default:
      return {
        type: 'deny',
        message: `canUseTool returned ${JSON.stringify(answer) ?? String(answer)}; expected { behavior: 'allow' | 'deny' | 'ask' }`,
      }
  }
}
