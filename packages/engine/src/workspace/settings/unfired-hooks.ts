import type { HookEntry } from '@z-engine/protocol'
import { HOOK_EVENT_TABLE } from '../hooks/events.js'
import { HOOK_EVENTS } from '../hooks/types.js'
import type { LoadedLayer, SettingsNotice } from './layers.js'

/**
 * One warning per layer and event whose hooks a session never runs (HOOK_EVENT_TABLE says why):
 * the hooks are kept and listed, but nobody should believe they guard anything.
 */
export function unfiredHookNotices(layers: readonly LoadedLayer[]): SettingsNotice[] {
  const notices: SettingsNotice[] = []
  for (const layer of layers) {
    const hooks = layer.data.hooks as Partial<Record<string, HookEntry[]>> | undefined
    if (hooks === undefined) continue
    for (const event of HOOK_EVENTS) {
      const count = hooks[event]?.length ?? 0
      const firing = HOOK_EVENT_TABLE[event].firing
      if (count === 0 || firing.fired) continue
      const file = layer.file ?? layer.name
      notices.push({
        severity: 'warning',
        layer: layer.name,
        file,
        key: `hooks.${event}`,
        code: 'hook_event_not_fired',
        message: `${file}: ${count === 1 ? 'the hook' : `the ${count} hooks`} of ${event} never run: ${firing.why}. ${count === 1 ? 'It is' : 'They are'} kept and listed.`,
      })
    }
  }
  return notices
}
