import { trustGatedCategories } from '@z-engine/policy'
import type { SettingsLayer } from '@z-engine/protocol'

/**
 * Policy category keys that are spelled differently in the settings shape. The policy's list is the
 * one source of truth (spec 000 "Workspace trust"); this only maps its names onto settings paths,
 * and a test fails if any category stops resolving to a real settings key.
 */
const SETTINGS_PATH_OF: Readonly<Record<string, string>> = {
  mcp_servers: 'mcp.servers',
  'permissions.default_mode': 'permissions.mode',
}

/** A trust-gated category (the policy's key) and the settings path it covers. */
export interface GatedSetting {
  category: string
  path: string
}

/** The policy's trust-gated categories with the settings path each one covers. */
export function gatedSettings(): GatedSetting[] {
  return trustGatedCategories().map(({ key }) => ({ category: key, path: SETTINGS_PATH_OF[key] ?? key }))
}

/**
 * A copy of a project layer without the gated settings it set, and which categories those were
 * (only ones with a value count: an empty `[hooks]` table withholds nothing). Deny and ask rules are
 * never gated, so a project can always restrict.
 */
export function withholdGated(
  layer: SettingsLayer,
  gated: readonly GatedSetting[],
): { data: SettingsLayer; withheld: string[] } {
  const data = structuredClone(layer) as Record<string, unknown>
  const withheld: string[] = []
  for (const { category, path: dotted } of gated) {
    const path = dotted.split('.')
    let holder: Record<string, unknown> | undefined = data
    for (const key of path.slice(0, -1)) {
      const next: unknown = holder?.[key]
      holder =
        typeof next === 'object' && next !== null && !Array.isArray(next)
          ? (next as Record<string, unknown>)
          : undefined
    }
    const last = path[path.length - 1]!
    if (holder === undefined || !(last in holder)) continue
    if (hasValue(holder[last])) withheld.push(category)
    delete holder[last]
  }
  return { data: data as SettingsLayer, withheld }
}

function hasValue(value: unknown): boolean {
  if (value === undefined || value === null) return false
  if (Array.isArray(value)) return value.length > 0
  if (typeof value === 'object') return Object.values(value).some(hasValue)
  return true
}
