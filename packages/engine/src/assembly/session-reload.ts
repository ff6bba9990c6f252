import type { PermissionMode } from '@z-engine/protocol'
import type { SkillPort } from '@z-engine/tools'
import { ruleLayersOf } from '../gate/policy-gate.js'
import { sessionMcpSpecs } from '../mcp/session-mcp.js'
import type { HookPort } from '../session/services.js'
import { changedSettingsFiles } from '../workspace/settings/changed-files.js'
import type { AssembleInput } from './assemble-input.js'
import type { CommandRunner } from './command-runner.js'
import type { ContextTracker } from './context-tracker.js'
import type { SessionGuard } from './session-guard.js'
import type { Notify } from './session-notices.js'
import type { ToolServices } from './session-tool-services.js'
import type { SessionTools } from './session-tools.js'
import type { SessionWorkspace } from './session-workspace.js'
import { renderSkillsList } from './skills-list.js'
import type { SessionSystemPrompt } from './system-prompt.js'

/** What a reload renews. */
export interface ReloadParts {
  input: AssembleInput
  workspace: SessionWorkspace
  guard: SessionGuard
  hooks: HookPort
  contextTracker: ContextTracker
  tools: ToolServices
  skillPort: SkillPort
  /** Read at each reload: the command runner is built with the reload. */
  commands: () => CommandRunner
  sessionTools: SessionTools
  system: SessionSystemPrompt
  notice: Notify
}

/**
 * A settings reload (`reloadSettings`, `trustWorkspace`, a plugin installed or toggled from the
 * chat): settings and trust are read again, then rules, hooks, instructions, agents, skills,
 * commands, plugins and MCP servers follow them. The mode follows only when the user has not
 * changed it in this session; it is returned for the actor to apply.
 */
export function createReload(parts: ReloadParts): (trustNow: boolean) => Promise<{ mode?: PermissionMode }> {
  const { input, workspace, hooks, tools, notice } = parts
  const { gate } = parts.guard
  const { projectRoot, env, state, hub } = input
  const { ports, mcp } = tools
  return async (trustNow) => {
    if (trustNow) {
      const recorded = await input.trust()
      if (!recorded.ok) notice('warning', `Could not record trust: ${recorded.error}`, 'trust')
    }
    const previous = workspace.loaded
    const read = await input.reloadSettings()
    // ConfigChange hooks (the session's, before the change) may keep the settings it has; trusting
    // the workspace is the user's own decision, which no hook undoes.
    const changes = trustNow ? [] : changedSettingsFiles(previous.readLayers, read.loaded.readLayers)
    for (const change of changes) {
      const verdict = await hooks.configChange?.(change)
      if (verdict?.blocked === undefined) continue
      notice(
        'warning',
        `Settings not reloaded: a ConfigChange hook kept ${change.filePath ?? change.source} out: ${verdict.blocked}`,
        'config_change_blocked',
      )
      return {}
    }
    workspace.adoptSettings(read.loaded, read.trusted)
    const loaded = workspace.loaded
    gate.setTrusted(workspace.trusted)
    gate.setRuleLayers(ruleLayersOf(loaded.layers))
    for (const directory of loaded.settings.permissions.additional_directories) gate.addDirectory(directory)
    for (const settingsNotice of loaded.notices)
      notice(settingsNotice.severity, settingsNotice.message, 'settings')
    const reloaded = await workspace.read()
    workspace.adopt(reloaded, notice)
    parts.contextTracker.setRules(workspace.rules.rules)
    if (workspace.skills.definitions.length > 0) ports.skills = parts.skillPort
    else delete ports.skills
    parts.commands().reset()
    // Servers the new settings add (or trust releases) start now; removed ones are killed.
    const changed = await mcp.reconcile(
      sessionMcpSpecs({
        loaded,
        trusted: workspace.trusted,
        projectRoot,
        env,
        hooks: { notice: (level, message) => notice(level, message, 'mcp'), remind: () => {} },
      }),
    )
    if (mcp.configured) ports.mcp = mcp
    for (const name of changed.added) notice('info', `MCP server ${name} is starting.`, 'mcp')
    for (const name of changed.restarted)
      notice('info', `MCP server ${name} restarts with its new settings.`, 'mcp')
    for (const name of changed.removed) notice('info', `MCP server ${name} was stopped.`, 'mcp')
    // The Skill and Agent tools describe what is loaded; the toolset is rebuilt once, here.
    parts.sessionTools.rebuild()
    parts.system.invalidate({
      instructions: reloaded.instructions,
      alwaysRules: workspace.rules.rules.filter((rule) => rule.alwaysApply),
      skills: renderSkillsList(workspace.skills.definitions),
    })
    if (loaded.trustRequired.length > 0) {
      hub.publish({ type: 'trustRequired', projectRoot, categories: loaded.trustRequired })
    }
    notice('info', trustNow ? 'Workspace trusted; its settings now apply.' : 'Settings reloaded.', 'settings')
    const before = previous.settings.permissions.mode
    const after = loaded.settings.permissions.mode
    return after !== before && state.mode === before ? { mode: after } : {}
  }
}
