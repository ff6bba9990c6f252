import type { HookEvent, HookInput } from './types.js'

/** The JSON a hook reads on stdin: Claude Code's snake_case field names. */
export function hookPayload<E extends HookEvent>(event: E, input: HookInput<E>): Record<string, unknown> {
  const common = {
    session_id: input.sessionId,
    transcript_path: input.transcriptPath,
    cwd: input.cwd,
    hook_event_name: event,
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
    case 'SubagentStop':
      return { ...common, stop_hook_active: (input as HookInput<'Stop'>).stopHookActive }
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
