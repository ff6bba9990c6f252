import type { HookEvent, HookInput } from './types.js'

/** The fields every event carries; the rest of an input is the event's own. */
const COMMON_FIELDS = new Set([
  'sessionId',
  'transcriptPath',
  'cwd',
  'permissionMode',
  'agentId',
  'agentType',
])

/** `toolInput` → `tool_input`, as Claude Code names every stdin field. */
function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)
}

/**
 * The JSON a hook reads on stdin: Claude Code's snake_case field names, the common fields first,
 * then `hook_event_name`, then the event's own fields (absent ones left out).
 */
export function hookPayload<E extends HookEvent>(event: E, input: HookInput<E>): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    session_id: input.sessionId,
    transcript_path: input.transcriptPath,
    cwd: input.cwd,
    ...(input.permissionMode !== undefined ? { permission_mode: input.permissionMode } : {}),
    hook_event_name: event,
    // Inside a subagent every event names it (Claude Code adds both fields there).
    ...(input.agentId !== undefined ? { agent_id: input.agentId } : {}),
    ...(input.agentType !== undefined ? { agent_type: input.agentType } : {}),
  }
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || (COMMON_FIELDS.has(key) && !EVENT_OWNS[key]?.has(event))) continue
    payload[snakeCase(key)] = value
  }
  return payload
}

/** Common-looking fields that are an event's own (the subagent's id and type on SubagentStart/Stop). */
const EVENT_OWNS: Partial<Record<string, ReadonlySet<HookEvent>>> = {
  agentId: new Set(['SubagentStart', 'SubagentStop']),
  agentType: new Set(['SubagentStart', 'SubagentStop']),
}
