import type { ConfigChangeFields } from '../hooks/types.js'
import type { LoadedLayer, SettingsLayerName } from './layers.js'

/** Claude Code's ConfigChange `source` for each settings layer a user edits as a file. */
const SOURCE_OF: Partial<Record<SettingsLayerName, ConfigChangeFields['source']>> = {
  claudeUser: 'user_settings',
  user: 'user_settings',
  claudeProject: 'project_settings',
  project: 'project_settings',
  claudeLocal: 'local_settings',
  local: 'local_settings',
}

/**
 * The settings files whose values differ between two loads, as ConfigChange hooks name them
 * (a file created, edited or deleted); plugin, MCP and environment layers are not settings files.
 */
export function changedSettingsFiles(
  before: readonly LoadedLayer[],
  after: readonly LoadedLayer[],
): ConfigChangeFields[] {
  const key = (layer: LoadedLayer) => `${layer.name}\u0000${layer.file ?? ''}`
  const old = new Map(before.map((layer) => [key(layer), layer]))
  const changes: ConfigChangeFields[] = []
  for (const layer of after) {
    const source = SOURCE_OF[layer.name]
    if (source === undefined) continue
    const previous = old.get(key(layer))
    if (previous !== undefined && JSON.stringify(previous.data) === JSON.stringify(layer.data)) continue
    if (previous === undefined && !layer.present) continue
    changes.push({ source, ...(layer.file !== undefined ? { filePath: layer.file } : {}) })
  }
  return changes
}
