import { unknownDecisionFeatures } from '../../decisions/features.js'
import { DECISION_FEATURES } from '../../decisions/registry.js'
import type { LoadedLayer, SettingsNotice } from './layers.js'
import { valueAt } from './object-path.js'

/**
 * Settings the schema accepts (they are specified) but the engine does not implement yet. Each is
 * reported where it is set, so nobody believes a switch works that does nothing. Remove an entry in
 * the change that makes it work.
 */
export const NOT_SUPPORTED_YET: ReadonlyArray<{
  /** The dotted key path, as in notices. */
  key: string
  /** How a user finds it in a settings file. */
  label: string
  /** For a table of switches, only keys with this prefix count. */
  keyPrefix?: string
}> = []

function isSet(value: unknown, keyPrefix: string | undefined): boolean {
  if (value === undefined) return false
  if (typeof value !== 'object' || value === null) return true
  const keys = Object.keys(value)
  return keyPrefix === undefined ? keys.length > 0 : keys.some((key) => key.startsWith(keyPrefix))
}

/** One warning per layer that sets a setting that is not supported yet ("not supported yet: [lsp]"). */
export function unsupportedSettingsNotices(layers: readonly LoadedLayer[]): SettingsNotice[] {
  const notices: SettingsNotice[] = []
  for (const layer of layers) {
    if (layer.name === 'defaults') continue
    for (const entry of NOT_SUPPORTED_YET) {
      if (!isSet(valueAt(layer.data, entry.key.split('.')), entry.keyPrefix)) continue
      const file = layer.file ?? layer.name
      notices.push({
        severity: 'warning',
        layer: layer.name,
        file,
        key: entry.key,
        message: `not supported yet: ${entry.label} (set in ${file}) is ignored; remove it or leave it for a later version.`,
      })
    }
  }
  return notices
}

/** One warning per `decisions_*` switch that names no decision use (a typo would otherwise do nothing). */
export function unknownDecisionFeatureNotices(layers: readonly LoadedLayer[]): SettingsNotice[] {
  return layers.flatMap((layer) => {
    const experimental = valueAt(layer.data, ['experimental'])
    if (layer.name === 'defaults' || typeof experimental !== 'object' || experimental === null) return []
    const file = layer.file ?? layer.name
    return unknownDecisionFeatures(experimental as Record<string, unknown>, DECISION_FEATURES).map(
      (feature): SettingsNotice => ({
        severity: 'warning',
        layer: layer.name,
        file,
        key: `experimental.${feature}`,
        message: `unknown decision feature experimental.${feature} (set in ${file}) is ignored; known: ${DECISION_FEATURES.join(', ')}.`,
      }),
    )
  })
}
