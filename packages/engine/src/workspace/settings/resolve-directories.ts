import { resolvePath } from '@z-engine/policy'
import type { LoadedLayer } from './layers.js'

/**
 * Resolves a layer's `permissions.additional_directories` to absolute folders, as Claude Code does:
 * `~` and `~/…` against the home folder, a relative path against the project the settings belong to
 * (the home folder outside a project). The gate and the sandbox then compare real folders, never
 * `../shared` as text, and every layer means the same folder whichever directory a session starts in.
 */
export function resolveAdditionalDirectories(
  layer: LoadedLayer,
  projectRoot: string | undefined,
  home: string,
): LoadedLayer {
  const permissions = layer.data.permissions as { additional_directories?: unknown } | undefined
  const directories = permissions?.additional_directories
  if (!Array.isArray(directories)) return layer
  const base = projectRoot ?? home
  const resolved = directories.map((directory) =>
    typeof directory === 'string' ? resolvePath(base, directory, home) : directory,
  )
  return {
    ...layer,
    data: { ...layer.data, permissions: { ...permissions, additional_directories: resolved } },
  } as LoadedLayer
}
