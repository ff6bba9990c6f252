import { skippedHook } from './interpret.js'
import { compileMatcher } from './matcher.js'
import { parseHookObject } from './parse-output.js'
import {
  defaultHookTimeoutSecs,
  type HookCommand,
  type HookEvent,
  type HookInput,
  type HookPermissionDecision,
  type HookRunResult,
  type PermissionRequestDecision,
} from './types.js'

/**
 * What a hook function returns: the same object a shell hook prints as JSON on stdout (Claude
 * Code's fields), so outcomes and precedence are the same. Returning nothing is a plain success.
 */
export interface HookCallbackOutput {
  /** `false` stops the turn; `stopReason` is shown to the user. */
  continue?: boolean
  stopReason?: string
  suppressOutput?: boolean
  /** A message shown to the user (not the model). */
  systemMessage?: string
  /** `block` blocks as a shell hook's exit 2 does (with `reason`); `approve` allows a PreToolUse call. */
  decision?: 'block' | 'approve'
  reason?: string
  hookSpecificOutput?: {
    hookEventName?: HookEvent
    permissionDecision?: HookPermissionDecision
    permissionDecisionReason?: string
    /** PreToolUse: the input the call runs with instead (validated and decided again). */
    updatedInput?: Record<string, unknown>
    /** Text for the model. */
    additionalContext?: string
    /** PermissionRequest: the answer given instead of the user's. */
    decision?: PermissionRequestDecision
    /** WorktreeCreate: the worktree the hook made (a worktree of the project on its own branch). */
    worktreePath?: string
  }
}

/** A hook function: the event's input (what a shell hook reads on stdin, camelCase) and an abort signal. */
export type HookCallback<E extends HookEvent = HookEvent> = (
  input: HookInput<E> & { hookEventName: E },
  options: { signal: AbortSignal },
) => HookCallbackOutput | undefined | Promise<HookCallbackOutput | undefined>

/** One function hook: which subjects it matches (as a shell hook's `matcher`) and how long it may take. */
export interface HookCallbackMatcher<E extends HookEvent = HookEvent> {
  /** Read as a shell hook's `matcher` on the same event (names or a regular expression); absent or `*`: all. */
  matcher?: string
  hook: HookCallback<E>
  /** Seconds before the hook counts as timed out (default `defaultHookTimeoutSecs(event)`). */
  timeoutSecs?: number
  /** A name for messages (default `function hook <n>`). */
  name?: string
}

/** Function hooks per event, run after the shell hooks of the same event. */
export type HookCallbacks = { [E in HookEvent]?: ReadonlyArray<HookCallbackMatcher<E>> }

/** Every event's function hooks of several lists, concatenated in order (the engine's, then a session's). */
export function mergeHookCallbacks(...lists: ReadonlyArray<HookCallbacks | undefined>): HookCallbacks {
  const merged: Record<string, HookCallbackMatcher[]> = {}
  for (const list of lists) {
    for (const [event, entries] of Object.entries(list ?? {})) {
      merged[event] = [...(merged[event] ?? []), ...((entries ?? []) as HookCallbackMatcher[])]
    }
  }
  return merged as HookCallbacks
}

/** Runs the function hooks of `event` whose matcher fits `subject`; each becomes a hook run result. */
export function runHookCallbacks<E extends HookEvent>(
  event: E,
  input: HookInput<E>,
  subject: string | undefined,
  callbacks: HookCallbacks,
  signal: AbortSignal | undefined,
): Array<Promise<HookRunResult>> {
  const entries = (callbacks[event] ?? []) as ReadonlyArray<HookCallbackMatcher<E>>
  return entries.flatMap((entry, index) => {
    const hook: HookCommand = {
      command: entry.name ?? `function hook ${index + 1}`,
      source: 'code',
      ...(entry.matcher !== undefined ? { matcher: entry.matcher } : {}),
      ...(entry.timeoutSecs !== undefined ? { timeoutSecs: entry.timeoutSecs } : {}),
    }
    if (subject !== undefined) {
      const matcher = compileMatcher(entry.matcher, event)
      if (!matcher.ok) return [Promise.resolve(skippedHook(hook, matcher.error))]
      if (!matcher.test(subject)) return []
    }
    return [runOne(event, entry, hook, input, signal)]
  })
}

async function runOne<E extends HookEvent>(
  event: E,
  entry: HookCallbackMatcher<E>,
  hook: HookCommand,
  input: HookInput<E>,
  outer: AbortSignal | undefined,
): Promise<HookRunResult> {
  const started = Date.now()
  const secs = entry.timeoutSecs ?? defaultHookTimeoutSecs(event)
  const controller = new AbortController()
  const onAbort = () => controller.abort(outer?.reason)
  outer?.addEventListener('abort', onAbort, { once: true })
  let timer: ReturnType<typeof setTimeout> | undefined
  const base = { hook, exitCode: null, stdout: '', stderr: '' }
  const ended = new Promise<'timeout' | 'cancelled'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), secs * 1000)
    controller.signal.addEventListener('abort', () => resolve('cancelled'), { once: true })
  })
  try {
    const value = await Promise.race([
      Promise.resolve().then(() =>
        entry.hook({ ...input, hookEventName: event }, { signal: controller.signal }),
      ),
      ended,
    ])
    const durationMs = Date.now() - started
    if (value === 'cancelled') return { ...base, status: 'cancelled', durationMs, warnings: [] }
    if (value === 'timeout') {
      controller.abort(new Error('hook timed out'))
      return {
        ...base,
        status: 'timeout',
        durationMs,
        warnings: [`timed out after ${secs}s; continuing (raise its timeoutSecs if it needs longer)`],
      }
    }
    if (value === undefined || value === null)
      return { ...base, exitCode: 0, status: 'success', durationMs, warnings: [] }
    if (typeof value !== 'object' || Array.isArray(value))
      return {
        ...base,
        exitCode: 0,
        status: 'success',
        durationMs,
        warnings: [`returned ${JSON.stringify(value)}, not an object; it was ignored`],
      }
    const parsed = parseHookObject(value as Record<string, unknown>)
    return {
      ...base,
      exitCode: 0,
      status: 'success',
      durationMs,
      output: parsed.output,
      warnings: parsed.warnings,
    }
  } catch (error) {
    return {
      ...base,
      status: 'failed',
      durationMs: Date.now() - started,
      stderr: error instanceof Error ? error.message : String(error),
      warnings: [`threw: ${error instanceof Error ? error.message : String(error)}; continuing`],
    }
  } finally {
    clearTimeout(timer)
    outer?.removeEventListener('abort', onAbort)
  }
}
