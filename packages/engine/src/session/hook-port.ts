import type { PreparedSandbox, ProcessScope } from '@z-engine/host'
import type { PermissionMode, SuggestedRule } from '@z-engine/protocol'
import type { HookCallbacks } from '../workspace/hooks/hook-callbacks.js'
import { runHooks } from '../workspace/hooks/run-hooks.js'
import type { HookCommand, HookEvent, HookOutcome, HooksConfig } from '../workspace/hooks/types.js'
import type { HookCallSite, HookPort } from './services.js'
import { worktreeHooks } from './worktree-hooks.js'

/** Where a session's hooks run. */
export interface HookPortOptions {
  config: () => HooksConfig
  /**
   * The hooks an agent type's definition brings (its frontmatter `hooks`), run beside the session's
   * while that agent works: on its tool calls and its SubagentStop. Undefined: none (or withheld).
   */
  agentHooks?: (agentType: string) => HooksConfig | undefined
  sessionId: string
  transcriptPath: string
  projectDir: string
  env: Readonly<Record<string, string | undefined>>
  /** The sandbox a hook runs in (project-defined hooks under `[shell.sandbox]`); absent: unconfined. */
  sandboxFor?: (hook: HookCommand, event: HookEvent) => Promise<PreparedSandbox | undefined>
  /** Hooks defined in code (the embedder's), run after the shell hooks of each event. */
  callbacks?: HookCallbacks
  /** The session whose close kills hook processes still running. */
  scope?: ProcessScope
  /** Warnings and system messages for the user (hook failures, timeouts, malformed output). */
  onNotice: (level: 'info' | 'warning', message: string) => void
  /** The session's permission mode now (every hook's `permission_mode`). */
  mode?: () => PermissionMode
  /** The user's home, where `~` in a hook's `if` resolves. */
  home?: string
}

/** A mode in Claude Code's spelling, as hooks written for it expect on stdin. */
export function claudePermissionMode(mode: PermissionMode): string {
  switch (mode) {
    case 'default':
    case 'acceptEdits':
    case 'plan':
      return mode
    case 'bypass':
      return 'bypassPermissions'
    default: {
      const unknownMode: never = mode
      return unknownMode
    }
  }
}

/** What the user is shown when a hook answered `continue: false`: its stopReason, or who stopped. */
function stopText(outcome: HookOutcome, event: string): string {
  return outcome.stopReason ?? `a ${event} hook stopped the turn (continue: false)`
}

/**
 * The approval card's suggested rule as Claude Code's `permission_suggestions` (permission
 * updates: `Bash(npm test:*)` → `{ toolName: 'Bash', ruleContent: 'npm test:*' }`).
 */
function permissionSuggestions(suggestion: SuggestedRule | undefined): unknown[] | undefined {
  if (suggestion === undefined) return undefined
  const rules = (suggestion.rules ?? [suggestion.rule]).map((rule) => {
    const open = rule.indexOf('(')
    if (open < 0 || !rule.endsWith(')')) return { toolName: rule }
    return { toolName: rule.slice(0, open), ruleContent: rule.slice(open + 1, -1) }
  })
  return [
    {
      type: 'addRules',
      rules,
      behavior: 'allow',
      destination: suggestion.scope === 'project' ? 'localSettings' : 'session',
    },
  ]
}

/** Adapts the hooks runner to the session's HookPort; never throws. */
export function createHookPort(options: HookPortOptions): HookPort {
  const context = hookContext(options)
  const worktrees = worktreeHooks({
    hasHooks: (event) => context.hasHooks(event),
    run: async (event, fields) =>
      context.report(
        await runHooks(event, { ...context.common(), ...fields }, options.config(), context.hookOptions),
      ),
    projectDir: options.projectDir,
  })
  return { ...toolHooks(context), ...turnHooks(context), ...sessionHooks(context), ...worktrees }
}

/** What every hook call of a session shares: the payload's common fields, options and reporting. */
function hookContext(options: HookPortOptions) {
  const common = (site?: HookCallSite) => {
    const mode = site?.mode ?? options.mode?.()
    return {
      sessionId: options.sessionId,
      transcriptPath: options.transcriptPath,
      cwd: site?.cwd ?? options.projectDir,
      ...(mode !== undefined ? { permissionMode: claudePermissionMode(mode) } : {}),
      ...(site?.agentId !== undefined ? { agentId: site.agentId } : {}),
      ...(site?.agentType !== undefined ? { agentType: site.agentType } : {}),
    }
  }
  const callOptions = (site?: HookCallSite) =>
    site === undefined
      ? hookOptions
      : { ...hookOptions, call: { projectRoot: site.root, cwd: site.cwd, home: options.home ?? '/' } }
  const run = options
  /** The session's hooks, plus the agent's own when the event happens inside a subagent. */
  const configFor = (agentType: string | undefined): HooksConfig => {
    const own = agentType === undefined ? undefined : options.agentHooks?.(agentType)
    if (own === undefined) return options.config()
    const merged: Record<string, HookCommand[]> = { ...options.config() } as Record<string, HookCommand[]>
    for (const [event, list] of Object.entries(own))
      merged[event] = [...(merged[event] ?? []), ...(list ?? [])]
    return merged as HooksConfig
  }
  const report = (outcome: HookOutcome) => {
    for (const warning of outcome.warnings) run.onNotice('warning', warning)
    for (const message of outcome.systemMessages) run.onNotice('info', message)
    return outcome
  }
  const hasHooks = (event: keyof HooksConfig, agentType?: string) =>
    (configFor(agentType)[event] ?? []).length > 0 || (options.callbacks?.[event] ?? []).length > 0
  const hookOptions = {
    projectDir: options.projectDir,
    env: options.env,
    ...(options.sandboxFor ? { sandboxFor: options.sandboxFor } : {}),
    ...(options.callbacks ? { callbacks: options.callbacks } : {}),
    ...(options.scope ? { scope: options.scope } : {}),
  }
  const joined = (parts: string[]) => (parts.length > 0 ? parts.join('\n') : undefined)
  return { options, run, common, callOptions, configFor, report, hasHooks, hookOptions, joined }
}

type HookContext = ReturnType<typeof hookContext>

/** The hooks around a tool call: PreToolUse, PostToolUse, PermissionRequest, PostToolBatch, a skill's shell lines. */
function toolHooks(
  context: HookContext,
): Pick<
  HookPort,
  'preToolUse' | 'postToolUse' | 'permissionRequest' | 'postToolBatch' | 'preSkillShellCommand'
> {
  const { options, common, callOptions, configFor, report, hasHooks, hookOptions, joined } = context
  return {
    async preToolUse(toolName, toolInput, toolUseId, site) {
      if (!hasHooks('PreToolUse', site?.agentType)) return {}
      const outcome = report(
        await runHooks(
          'PreToolUse',
          { ...common(site), toolName, toolInput, toolUseId },
          configFor(site?.agentType),
          callOptions(site),
        ),
      )
      // Claude Code shows an allow's reason to the user (a deny's goes to the model).
      if (outcome.permissionDecision === 'allow' && outcome.permissionDecisionReason)
        options.onNotice('info', `PreToolUse hook allowed ${toolName}: ${outcome.permissionDecisionReason}`)
      const context = joined(outcome.additionalContext)
      return {
        ...(outcome.continue ? {} : { stop: stopText(outcome, 'PreToolUse') }),
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
    async postToolUse(toolName, toolInput, result, site, toolUseId) {
      // Claude Code runs PostToolUse after a success and PostToolUseFailure after a failure.
      const event = result.ok ? 'PostToolUse' : 'PostToolUseFailure'
      if (!hasHooks(event, site?.agentType)) return {}
      const call = {
        ...common(site),
        toolName,
        toolInput,
        ...(toolUseId !== undefined ? { toolUseId } : {}),
      }
      const outcome = report(
        result.ok
          ? await runHooks(
              'PostToolUse',
              { ...call, toolResponse: { content: result.output.content } },
              configFor(site?.agentType),
              callOptions(site),
            )
          : await runHooks(
              'PostToolUseFailure',
              { ...call, error: result.error.message, isInterrupt: false },
              configFor(site?.agentType),
              callOptions(site),
            ),
      )
      const parts = [...outcome.additionalContext]
      if (outcome.blocked && outcome.blockReason)
        parts.unshift(`${event} hook feedback: ${outcome.blockReason}`)
      const context = joined(parts)
      return {
        ...(context !== undefined ? { additionalContext: context } : {}),
        ...(outcome.continue ? {} : { stop: stopText(outcome, event) }),
      }
    },
    async permissionRequest(request, site) {
      if (!hasHooks('PermissionRequest', site?.agentType)) return {}
      const suggestions = permissionSuggestions(request.suggestion)
      const outcome = report(
        await runHooks(
          'PermissionRequest',
          {
            ...common(site),
            toolName: request.toolName,
            toolInput: request.input,
            toolUseId: request.toolUseId,
            ...(suggestions !== undefined ? { permissionSuggestions: suggestions } : {}),
          },
          configFor(site?.agentType),
          callOptions(site),
        ),
      )
      if (!outcome.continue) return { stop: stopText(outcome, 'PermissionRequest') }
      // Exit 2 denies as Claude Code does, its stderr the message for the model.
      if (outcome.blocked) return { decision: { behavior: 'deny', message: outcome.blockReason ?? '' } }
      return outcome.permissionRequest !== undefined ? { decision: outcome.permissionRequest } : {}
    },
    async postToolBatch(calls, site) {
      if (!hasHooks('PostToolBatch', site?.agentType)) return
      report(
        await runHooks(
          'PostToolBatch',
          { ...common(site), toolCalls: calls },
          configFor(site?.agentType),
          callOptions(site),
        ),
      )
    },
    async preSkillShellCommand(line) {
      if (!hasHooks('PreSkillShellCommand')) return {}
      const outcome = report(
        await runHooks(
          'PreSkillShellCommand',
          {
            ...common(),
            toolName: 'Bash',
            toolInput: { command: line.command },
            toolUseId: line.toolUseId,
            commandName: line.commandName,
            ...(line.commandSource !== undefined ? { commandSource: line.commandSource } : {}),
            invokedBy: line.invokedBy,
          },
          options.config(),
          hookOptions,
        ),
      )
      if (!outcome.continue) return { stop: stopText(outcome, 'PreSkillShellCommand') }
      return outcome.blocked ? { refused: outcome.blockReason ?? '' } : {}
    },
  }
}

/** The hooks of a turn and its agents: prompts, instructions, stops, subagents, compaction, expansions, failures. */
function turnHooks(
  context: HookContext,
): Pick<
  HookPort,
  | 'instructionsLoaded'
  | 'userPromptSubmit'
  | 'stop'
  | 'subagentStart'
  | 'subagentStop'
  | 'preCompact'
  | 'postCompact'
  | 'userPromptExpansion'
  | 'stopFailure'
> {
  const { options, common, configFor, report, hasHooks, hookOptions, joined } = context
  return {
    async instructionsLoaded(file) {
      if (!hasHooks('InstructionsLoaded')) return
      report(await runHooks('InstructionsLoaded', { ...common(), ...file }, options.config(), hookOptions))
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
    async stop(stopHookActive) {
      if (!hasHooks('Stop')) return {}
      const outcome = report(
        await runHooks('Stop', { ...common(), stopHookActive }, options.config(), hookOptions),
      )
      // `continue: false` wins over a block: the turn ends (Claude Code).
      if (!outcome.continue) return { stop: stopText(outcome, 'Stop') }
      return outcome.blocked ? { blocked: outcome.blockReason ?? 'blocked by a Stop hook' } : {}
    },
    async subagentStart(agent) {
      if (!hasHooks('SubagentStart')) return {}
      const outcome = report(
        await runHooks(
          'SubagentStart',
          { ...common(), agentId: agent.id, agentType: agent.type },
          options.config(),
          hookOptions,
        ),
      )
      const context = joined(outcome.additionalContext)
      return context !== undefined ? { additionalContext: context } : {}
    },
    async subagentStop(stopHookActive, agent) {
      if (!hasHooks('SubagentStop', agent.type)) return {}
      const outcome = report(
        await runHooks(
          'SubagentStop',
          {
            ...common(),
            stopHookActive,
            agentId: agent.id,
            agentType: agent.type,
            ...(agent.transcriptPath !== undefined ? { agentTranscriptPath: agent.transcriptPath } : {}),
            ...(agent.lastAssistantMessage !== undefined
              ? { lastAssistantMessage: agent.lastAssistantMessage }
              : {}),
          },
          configFor(agent.type),
          hookOptions,
        ),
      )
      return outcome.blocked ? { blocked: outcome.blockReason ?? 'blocked by a SubagentStop hook' } : {}
    },
    async preCompact(trigger, customInstructions) {
      if (!hasHooks('PreCompact')) return {}
      const outcome = report(
        await runHooks(
          'PreCompact',
          { ...common(), trigger, customInstructions },
          options.config(),
          hookOptions,
        ),
      )
      return outcome.blocked ? { blocked: outcome.blockReason ?? 'blocked by a PreCompact hook' } : {}
    },
    async userPromptExpansion(expansion) {
      if (!hasHooks('UserPromptExpansion')) return {}
      const outcome = report(
        await runHooks('UserPromptExpansion', { ...common(), ...expansion }, options.config(), hookOptions),
      )
      if (outcome.blocked || !outcome.continue)
        return {
          blocked: outcome.blockReason ?? outcome.stopReason ?? 'blocked by a UserPromptExpansion hook',
        }
      const context = joined(outcome.additionalContext)
      return context !== undefined ? { additionalContext: context } : {}
    },
    async stopFailure(error, details) {
      if (!hasHooks('StopFailure')) return
      report(
        await runHooks(
          'StopFailure',
          { ...common(), error, errorDetails: details },
          options.config(),
          hookOptions,
        ),
      )
    },
    async postCompact(trigger, summary) {
      if (!hasHooks('PostCompact')) return
      report(
        await runHooks(
          'PostCompact',
          { ...common(), trigger, compactSummary: summary },
          options.config(),
          hookOptions,
        ),
      )
    },
  }
}

/** The hooks of the session's life: start and end, notifications, folders, settings and model switches. */
function sessionHooks(
  context: HookContext,
): Pick<
  HookPort,
  | 'sessionEnd'
  | 'notification'
  | 'directoryAdded'
  | 'cwdChanged'
  | 'fileChanged'
  | 'configChange'
  | 'preModelSwitch'
  | 'postModelSwitch'
  | 'sessionStart'
> {
  const { options, common, report, hasHooks, hookOptions, joined } = context
  return {
    async sessionEnd(reason) {
      if (!hasHooks('SessionEnd')) return
      report(await runHooks('SessionEnd', { ...common(), reason }, options.config(), hookOptions))
    },
    async notification(message) {
      if (!hasHooks('Notification')) return
      report(await runHooks('Notification', { ...common(), message }, options.config(), hookOptions))
    },
    async directoryAdded(directory) {
      if (!hasHooks('DirectoryAdded')) return
      report(
        await runHooks(
          'DirectoryAdded',
          { ...common(), directory, source: 'slash_command' },
          options.config(),
          hookOptions,
        ),
      )
    },
    async fileChanged(filePath, event) {
      if (!hasHooks('FileChanged')) return
      report(await runHooks('FileChanged', { ...common(), filePath, event }, options.config(), hookOptions))
    },
    async cwdChanged(oldCwd, newCwd) {
      if (!hasHooks('CwdChanged')) return
      report(await runHooks('CwdChanged', { ...common(), oldCwd, newCwd }, options.config(), hookOptions))
    },
    async configChange(change) {
      if (!hasHooks('ConfigChange')) return {}
      const outcome = report(
        await runHooks('ConfigChange', { ...common(), ...change }, options.config(), hookOptions),
      )
      // Claude Code never lets a hook keep out a managed policy's change.
      if (change.source === 'policy_settings') return {}
      if (outcome.blocked || !outcome.continue)
        return { blocked: outcome.blockReason || outcome.stopReason || 'blocked by a ConfigChange hook' }
      return {}
    },
    async preModelSwitch(change) {
      if (!hasHooks('PreModelSwitch')) return {}
      const outcome = report(
        await runHooks('PreModelSwitch', { ...common(), ...change }, options.config(), hookOptions),
      )
      if (outcome.blocked || !outcome.continue)
        return { blocked: outcome.blockReason ?? outcome.stopReason ?? 'blocked by a PreModelSwitch hook' }
      return {}
    },
    async postModelSwitch(change) {
      if (!hasHooks('PostModelSwitch')) return
      report(await runHooks('PostModelSwitch', { ...common(), ...change }, options.config(), hookOptions))
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
