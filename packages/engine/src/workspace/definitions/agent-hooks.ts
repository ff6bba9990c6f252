import type { HooksConfig } from '../hooks/types.js'
import { parseClaudeLayer } from '../settings/claude-layer.js'
import { hooksFromLayers } from '../settings/effective.js'
import type { FieldReader } from './fields.js'

/**
 * An agent's frontmatter `hooks` (Claude Code's settings shape: `{Event: [{matcher, hooks: [...]}]}`)
 * as the hooks a session runs while that agent works, read by the same converter as
 * `.claude/settings.json`. Claude Code runs an agent's `Stop` hooks when the agent itself ends, i.e.
 * as SubagentStop. Broken blocks are warnings naming what was left out.
 */
export function agentHooksConfig(fields: FieldReader, file: string): HooksConfig | undefined {
  if (!fields.has('hooks')) return undefined
  const raw = fields.raw('hooks')
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    fields.warn(
      'field_invalid',
      '"hooks" must map events to matcher groups ({PreToolUse: [...]}); it was ignored',
    )
    return undefined
  }
  const events: Record<string, unknown[]> = {}
  for (const [event, groups] of Object.entries(raw)) {
    const target = event === 'Stop' ? 'SubagentStop' : event
    events[target] = [...(events[target] ?? []), ...(Array.isArray(groups) ? groups : [groups])]
  }
  const layer = parseClaudeLayer('claudeProject', file, JSON.stringify({ hooks: events }))
  for (const notice of layer.notices)
    fields.warn('field_invalid', `"hooks": ${notice.message.slice(notice.message.indexOf(': ') + 2)}`)
  return hooksFromLayers([layer])
}
