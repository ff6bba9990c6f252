import type { PreparedSandbox, ProcessScope } from '@z-engine/host'
import { combineHookResults } from './combine.js'
import { type HookCallContext, hookConditionMatches } from './condition.js'
import { type HookCallbacks, runHookCallbacks } from './hook-callbacks.js'
import { interpretHookProcess, skippedHook } from './interpret.js'
import { compileMatcher, matcherSubject } from './matcher.js'
import { hookPayload } from './payload.js'
import { spawnHook } from './spawn-hook.js'
import {
  defaultHookTimeoutSecs,
  type HookCommand,
  type HookEvent,
  type HookInput,
  type HookOutcome,
  type HookRunResult,
  type HooksConfig,
  TOOL_HOOK_EVENTS,
} from './types.js'

/** Where hooks run and what they may see. */
export interface RunHooksOptions {
  /** The project root: the hooks' working directory and `$Z_ENGINE_PROJECT_DIR` / `$CLAUDE_PROJECT_DIR`. */
  projectDir: string
  /** The base environment for hook processes (usually the session's); nothing is read from process.env. */
  env: Readonly<Record<string, string | undefined>>
  /** Aborting kills every running hook of this call. */
  signal?: AbortSignal
  /** The sandbox a hook of `event` runs in; none: unconfined. */
  sandboxFor?: (hook: HookCommand, event: HookEvent) => Promise<PreparedSandbox | undefined>
  /** Hooks defined in code; they run after the shell hooks and combine with them the same way. */
  callbacks?: HookCallbacks
  /** The session whose close kills hook processes still running. */
  scope?: ProcessScope
  /** Where the call's paths resolve, for `if` conditions (tool events); default: the project and `/`. */
  call?: HookCallContext
}

/**
 * Runs every hook configured for `event` whose matcher fits, in parallel, and combines their
 * outcomes (see `combineHookResults`). Never rejects: a hook that hangs, crashes or prints garbage
 * becomes a warning and the engine continues.
 */
export async function runHooks<E extends HookEvent>(
  event: E,
  input: HookInput<E>,
  config: HooksConfig,
  options: RunHooksOptions,
): Promise<HookOutcome> {
  const payload = hookPayload(event, input)
  const subject = matcherSubject(event, payload)
  const stdinJson = JSON.stringify(payload)
  const env = {
    ...options.env,
    Z_ENGINE_PROJECT_DIR: options.projectDir,
    CLAUDE_PROJECT_DIR: options.projectDir,
  }
  const seen = new Set<string>()
  const runs: Array<Promise<HookRunResult>> = []
  for (const hook of config[event] ?? []) {
    // An event with nothing to match (UserPromptSubmit, Stop…) ignores the matcher, as Claude Code does.
    if (subject !== undefined) {
      const matcher = compileMatcher(hook.matcher, event)
      if (!matcher.ok) {
        runs.push(Promise.resolve(skippedHook(hook, matcher.error)))
        continue
      }
      if (!matcher.test(subject)) continue
    }
    const condition = conditionFor(event, input, hook, options)
    if (condition === false) continue
    // The same command configured twice (say in .claude and .z-engine settings) runs once.
    if (seen.has(hook.command)) continue
    seen.add(hook.command)
    const spawnOptions = {
      cwd: options.projectDir,
      // A plugin's hook gets its folder and data folder, as Claude Code gives them.
      env: hook.env === undefined ? env : { ...env, ...hook.env },
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.scope ? { scope: options.scope } : {}),
    }
    // Results show the timeout the hook actually ran with (the event's default when it set none).
    const timed =
      hook.timeoutSecs === undefined ? { ...hook, timeoutSecs: defaultHookTimeoutSecs(event) } : hook
    const run = runOne(timed, event, stdinJson, spawnOptions, options.sandboxFor)
    // An `if` that cannot be read never stops a hook (it may be the one that guards): it runs, warned.
    runs.push(
      typeof condition === 'string'
        ? run.then((result) => ({ ...result, warnings: [condition, ...result.warnings] }))
        : run,
    )
  }
  if (options.callbacks)
    runs.push(...runHookCallbacks(event, input, subject, options.callbacks, options.signal))
  return combineHookResults(event, await Promise.all(runs))
}

/**
 * A hook's `if` on a tool event: true (run), false (skip), or a warning when it cannot be read (the
 * hook runs). Other events have no tool call to test, so `if` does not apply there.
 */
function conditionFor<E extends HookEvent>(
  event: E,
  input: HookInput<E>,
  hook: HookCommand,
  options: RunHooksOptions,
): boolean | string {
  if (hook.if === undefined || !TOOL_HOOK_EVENTS.has(event)) return true
  const call = input as HookInput<'PreToolUse'>
  const result = hookConditionMatches(
    hook.if,
    call.toolName,
    call.toolInput,
    options.call ?? { projectRoot: options.projectDir, cwd: input.cwd, home: '/' },
  )
  if (!result.ok) return `${result.error}; it ran as if it had no condition`
  return result.matches
}

async function runOne(
  hook: HookCommand,
  event: HookEvent,
  stdinJson: string,
  spawnOptions: Parameters<typeof spawnHook>[2],
  sandboxFor: RunHooksOptions['sandboxFor'],
): Promise<HookRunResult> {
  let prepared: PreparedSandbox | undefined
  try {
    prepared = await sandboxFor?.(hook, event)
  } catch (error) {
    // A hook that should run confined never runs unconfined instead.
    return skippedHook(
      hook,
      `its sandbox could not be prepared (${error instanceof Error ? error.message : String(error)})`,
    )
  }
  try {
    const process = await spawnHook(
      hook,
      stdinJson,
      prepared ? { ...spawnOptions, wrap: prepared.wrap } : spawnOptions,
    )
    return interpretHookProcess(hook, process)
  } finally {
    await prepared?.release()
  }
}

/** The hooks of `event` a given subject (tool name, agent type, trigger, source) would match, for `hooks list`. */
export function matchingHooks(
  event: HookEvent,
  subject: string | undefined,
  config: HooksConfig,
): HookCommand[] {
  return (config[event] ?? []).filter((hook) => {
    if (subject === undefined) return true
    const matcher = compileMatcher(hook.matcher, event)
    return matcher.ok && matcher.test(subject)
  })
}
