import type { HookEvent, HookInput } from './types.js'

/** The JSON a hook reads on stdin: Claude Code's snake_case field names. */
export function hookPayload<E extends HookEvent>(event: E, input: HookInput<E>): Record<string, unknown> {
  const common: Record<string, unknown> = {
    session_id: input.sessionId,
    transcript_path: input.transcriptPath,
    cwd: input.cwd,
    ...(input.permissionMode !== undefined ? { permission_mode: input.permissionMode } : {}),
    hook_event_name: event,
    // Inside a subagent every event names it (Claude Code adds both fields there).
    ...(input.agentId !== undefined ? { agent_id: input.agentId } : {}),
    ...(input.agentType !== undefined ? { agent_type: input.agentType } : {}),
  }
  switch (event) {
    case 'PreToolUse': {
      const fields = input as HookInput<'PreToolUse'>
      return { ...common, tool_name: fields.toolName, tool_input: fields.toolInput }
    }
    case 'PostToolUse': {
      const fields = input as HookInput<'PostToolUse'>
      return {
        ...common,
        tool_name: fields.toolName,
        tool_input: fields.toolInput,
        tool_response: fields.toolResponse,
      }
    }
    case 'UserPromptSubmit':
      return { ...common, prompt: (input as HookInput<'UserPromptSubmit'>).prompt }
    case 'SessionStart':
      return { ...common, source: (input as HookInput<'SessionStart'>).source }
    case 'SessionEnd':
      return { ...common, reason: (input as HookInput<'SessionEnd'>).reason }
    case 'Stop':
      return { ...common, stop_hook_active: (input as HookInput<'Stop'>).stopHookActive }
    case 'SubagentStart': {
      const fields = input as HookInput<'SubagentStart'>
      return { ...common, agent_id: fields.agentId, agent_type: fields.agentType }
    }
    case 'SubagentStop': {
      const fields = input as HookInput<'SubagentStop'>
      return {
        ...common,
        stop_hook_active: fields.stopHookActive,
        agent_id: fields.agentId,
        agent_type: fields.agentType,
        ...(fields.agentTranscriptPath !== undefined
          ? { agent_transcript_path: fields.agentTranscriptPath }
          : {}),
        ...(fields.lastAssistantMessage !== undefined
          ? { last_assistant_message: fields.lastAssistantMessage }
          : {}),
      }
    }
    case 'PreCompact': {
      const fields = input as HookInput<'PreCompact'>
      return { ...common, trigger: fields.trigger, custom_instructions: fields.customInstructions }
    }
    case 'Notification':
      return { ...common, message: (input as HookInput<'Notification'>).message }
    default: {
      const unknownEvent: never = event
      return unknownEvent
    }
  }
}
