import { parseSettings } from '@z-engine/protocol'
import type { LoadedLayer } from './layers.js'

/**
 * An embedder's `settings` object as a layer above the files: validated with the settings schema,
 * where unknown keys are errors too (code has no excuse for a typo). The message names each key.
 */
export function codeSettingsLayer(
  value: unknown,
  source: string,
): { ok: true; layer: LoadedLayer } | { ok: false; message: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, message: `${source} must be an object shaped like settings.toml (snake_case keys).` }
  const parsed = parseSettings(value)
  const problems = [...(parsed.ok ? [] : [parsed.error]), ...parsed.warnings].map(
    (issue) => `${source}.${issue.path} ${issue.message}`,
  )
  if (!parsed.ok || problems.length > 0)
    return {
      ok: false,
      message: `${problems.join('; ')}. The settings object takes the keys of settings.toml (docs/protocol.md lists them).`,
    }
  return {
    ok: true,
    layer: { name: 'code', file: source, present: true, data: parsed.settings, notices: [] },
  }
}
