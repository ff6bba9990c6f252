/**
 * @z-engine/engine/hooks: hook events, matchers, payloads and timeouts, and running one event's hooks outside a session (`z-engine hooks list|test`). For the repository's own apps (the CLI, the gateway); unstable: names
 * and shapes may change between minor versions. An embedder uses `@z-engine/engine`.
 */

/** Runs one event's hooks outside a session as a session runs them, confined (`z-engine hooks test`). */
export { runHooksStandalone } from './assembly/standalone-hooks.js'
/** A permission mode in Claude Code's spelling (a hook's `permission_mode`). */
export { claudePermissionMode } from './session/hook-port.js'
/** Claude Code's hook events and what a session does with each (matcher field, when it fires). */
export { HOOK_EVENT_TABLE } from './workspace/hooks/events.js'
/** How a hook matcher is read (exact, list, regex), for `hooks list`. */
export { matcherKind } from './workspace/hooks/matcher.js'
/** The JSON a hook reads on stdin, for `hooks test`. */
export { hookPayload } from './workspace/hooks/payload.js'
/** One shell hook's configuration. */
export type { HookCommand } from './workspace/hooks/types.js'
/** A hook's timeout when it sets none, by event. */
export { defaultHookTimeoutSecs } from './workspace/hooks/types.js'
