import type { PreparedSandbox, ProcessScope } from '@z-engine/host'
import type { HookCallbacks } from '../workspace/hooks/hook-callbacks.js'
import { runHooks } from '../workspace/hooks/run-hooks.js'
import type { HookCommand, HookOutcome, HooksConfig } from '../workspace/hooks/types.js'
import type { HookPort } from './services.js'

/** Where a session's hooks run. */
export interface HookPortOptions {
  config: () => HooksConfig
  sessionId: string
  transcriptPath: string
  projectDir: string
  env: Readonly<Record<string, string | undefined>>
  /** The sandbox a hook runs in (project-defined hooks under `[shell.sandbox]`); absent: unconfined. */
  sandboxFor?: (hook: HookCommand) => Promise<PreparedSandbox | undefined>
  /** Hooks defined in code (the embedder's), run after the shell hooks of each event. */
  callbacks?: HookCallbacks
  /** The session whose close kills hook processes still running. */
  scope?: ProcessScope
  /** Warnings and system messages for the user (hook failures, timeouts, malformed output). */
  onNotice: (level: 'info' | 'warning', message: string) => void
}

/** Adapts the hooks runner to the session's HookPort; never throws. */
export function createHookPort(options: HookPortOptions): HookPort {
  const common = () => ({
    sessionId: options.sessionId,
    transcriptPath: options.transcriptPath,
    cwd: options.projectDir,
  })
  const run = options
  const report = (outcome: HookOutcome) => {
    for (const warning of outcome.warnings) run.onNotice('warning', warning)
    for (const message of outcome.systemMessages) run.onNotice('info', message)
    return outcome
  }
  const hasHooks = (event: keyof HooksConfig) =>
    (options.config()[event] ?? []).length > 0 || (options.callbacks?.[event] ?? []).length > 0
  const hookOptions = {
    projectDir: options.projectDir,
    env: options.env,
    ...(options.sandboxFor ? { sandboxFor: options.sandboxFor } : {}),
    ...(options.callbacks ? { callbacks: options.callbacks } : {}),
    ...(options.scope ? { scope: options.scope } : {}),
  }
  const joined = (parts: string[]) => (parts.length > 0 ? parts.join('\n') : undefined)

  return {
    async preToolUse(toolName, toolInput) {
      if (!hasHooks('PreToolUse')) return {}
      const outcome = report(
        await runHooks('PreToolUse', { ...common(), toolName, toolInput }, options.config(), hookOptions),
      )
      const context = joined(outcome.additionalContext)
      return {
        ...(outcome.blocked ? { blocked: { reason: outcome.blockReason ?? 'blocked by a hook' } } : {}),
        ...(outcome.permissionDecision
          ? {
              permission: {
                decision: outcome.permissionDecision,
                ...(outcome.permissionDecisionReason !== undefined
                  ? { reason: outcome.permissionDecisionReason }
                  : {}),
              },
            }
          : {}),
        ...(outcome.updatedInput ? { updatedInput: outcome.updatedInput } : {}),
        ...(context !== undefined ? { additionalContext: context } : {}),
      }
    },
    async postToolUse(toolName, toolInput, result) {
      if (!hasHooks('PostToolUse')) return {}
      const toolResponse = result.ok ? { content: result.output.content } : { error: result.error }
      const outcome = report(
        await runHooks(
          'PostToolUse',
          { ...common(), toolName, toolInput, toolResponse },
          options.config(),
          hookOptions,
        ),
      )
      const parts = [...outcome.additionalContext]
      if (outcome.blocked && outcome.blockReason)
        parts.unshift(`PostToolUse hook feedback: ${outcome.blockReason}`)
      const context = joined(parts)
      return context !== undefined ? { additionalContext: context } : {}
    },
    async userPromptSubmit(prompt) {
      if (!hasHooks('UserPromptSubmit')) return {}
      const outcome = report(
        await runHooks('UserPromptSubmit', { ...common(), prompt }, options.config(), hookOptions),
      )
      if (outcome.blocked || !outcome.continue) {
        return { blocked: outcome.blockReason ?? outcome.stopReason ?? 'blocked by a UserPromptSubmit hook' }
      }
      const context = joined(outcome.additionalContext)
      return context !== undefined ? { additionalContext: context } : {}
    },
    async stop(stopHookActive, event = 'Stop') {
      if (!hasHooks(event)) return {}
      const outcome = report(
        await runHooks(event, { ...common(), stopHookActive }, options.config(), hookOptions),
      )
      return outcome.blocked ? { blocked: outcome.blockReason ?? `blocked by a ${event} hook` } : {}
    },
    async preCompact(trigger, customInstructions) {
      if (!hasHooks('PreCompact')) return
      report(
        await runHooks(
          'PreCompact',
          { ...common(), trigger, customInstructions },
          options.config(),
          hookOptions,
        ),
      )
    },
    async sessionEnd(reason) {
      if (!hasHooks('SessionEnd')) return
      report(await runHooks('SessionEnd', { ...common(), reason }, options.config(), hookOptions))
    },
    async notification(message) {
      if (!hasHooks('Notification')) return
      report(await runHooks('Notification', { ...common(), message }, options.config(), hookOptions))
    },
    async sessionStart(source) {
      if (!hasHooks('SessionStart')) return {}
      const outcome = report(
        await runHooks('SessionStart', { ...common(), source }, options.config(), hookOptions),
      )
      const context = joined(outcome.additionalContext)
      return context !== undefined ? { additionalContext: context } : {}
    },
  }
}
