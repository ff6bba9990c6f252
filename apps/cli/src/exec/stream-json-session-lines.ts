import type { Usage } from '@z-engine/protocol'
import type { LineTable } from './stream-json-lines.js'
import type { StreamUsage } from './stream-json-types.js'

/** Usage with snake_case keys. */
export function snakeUsage(usage: Usage): StreamUsage {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_read_tokens: usage.cacheReadTokens,
    cache_write_tokens: usage.cacheWriteTokens,
  }
}

/** The session's own lines: its start, streamed text, usage, checkpoints and rewinds. */
export const SESSION_LINES = {
  sessionOpened: (event, { common }) => [
    {
      type: 'run_start',
      ...common,
      project_root: event.projectRoot,
      model: event.model,
      mode: event.mode,
      resumed: event.resumed,
      protocol_version: event.protocolVersion,
      ...(event.forkedFrom ? { forked_from: event.forkedFrom.sessionId } : {}),
    },
  ],
  textDelta: (event, { common }) =>
    event.delta === '' ? [] : [{ type: 'text', ...common, text: event.delta }],
  thinkingDelta: (event, { common }) =>
    event.delta === '' ? [] : [{ type: 'reasoning', ...common, text: event.delta }],
  usageUpdated: (event, { common }) => [
    {
      type: 'usage',
      ...common,
      usage: snakeUsage(event.usage),
      cost_usd: event.cost.totalUsd,
      session_usage: snakeUsage(event.sessionUsage),
      session_cost_usd: event.sessionCost.totalUsd,
      ...(event.model !== undefined ? { model: event.model } : {}),
      ...(event.contextTokens !== undefined ? { context_tokens: event.contextTokens } : {}),
      ...(event.contextWindow !== undefined ? { context_window: event.contextWindow } : {}),
    },
  ],
  checkpointCreated: (event, { common }) => [
    {
      type: 'checkpoint',
      ...common,
      checkpoint_id: event.checkpoint.id,
      message_id: event.checkpoint.messageId,
      commit: event.checkpoint.commit,
    },
  ],
  rewound: (event, { common }) => [
    {
      type: 'restore',
      ...common,
      message_id: event.messageId,
      scope: event.scope,
      restored_files: event.restoredFiles ?? [],
      ...(event.checkpointId !== undefined ? { checkpoint_id: event.checkpointId } : {}),
    },
  ],
} satisfies Partial<LineTable>
