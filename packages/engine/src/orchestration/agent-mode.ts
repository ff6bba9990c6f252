import { subagentMode } from '@z-engine/policy'
import type { PermissionMode } from '@z-engine/protocol'
import type { AgentDefinition } from '../workspace/definitions/types.js'
import type { AgentCaller } from './agent-entry.js'

/** Whether a definition comes from the project (`.claude/agents`, `.z-engine/agents`): trust-limited. */
function fromProject(definition: AgentDefinition): boolean {
  return definition.source.layer === 'project' || definition.source.layer === 'projectClaude'
}

/**
 * The mode a subagent's calls are decided in now: its definition's, else its caller's, never looser
 * than the caller's for a project definition (spec 000 "Workspace trust"). The session's bypass is
 * applied on top by the orchestrator.
 */
export function agentMode(definition: AgentDefinition, caller: AgentCaller): PermissionMode {
  return subagentMode(caller.mode(), definition.permissionMode, fromProject(definition)).mode
}

/** The warning to show when a project definition asks for a looser mode than its caller's, or undefined. */
export function agentModeWarning(definition: AgentDefinition, caller: AgentCaller): string | undefined {
  const callerMode = caller.mode()
  const { refused } = subagentMode(callerMode, definition.permissionMode, fromProject(definition))
  if (refused === undefined) return undefined
  return `Agent ${definition.name} (${definition.source.path}) asks for permissionMode ${refused}, looser than its caller's ${callerMode}; a project's agent definitions never run looser than their caller, so it runs in ${callerMode} and its calls ask as they would there.`
}
