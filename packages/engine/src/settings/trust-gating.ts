import type { SettingsLayer } from '@z-engine/protocol'

/**
 * The settings an untrusted project may not set, as dotted key paths (spec 000 "Workspace trust"):
 * hooks, MCP servers, checks, the permission mode, allow rules, additional directories,
 * auto_allow_read_only_bash, and the whole shell, provider, web, lsp and decisions sections. Deny
 * and ask rules are deliberately absent: a project may always restrict.
 *
 * TODO(policy): replace with `trustGatedCategories()` from @z-engine/policy once it is exported, so
 * the settings screen and this function read one list.
 */
export function trustGatedCategories(): readonly string[] {
  return TRUST_GATED
}

const TRUST_GATED: readonly string[] = [
  'hooks',
  'mcp.servers',
  'verification.checks',
  'permissions.mode',
  'permissions.allow',
  'permissions.additional_directories',
  'permissions.auto_allow_read_only_bash',
  'shell',
  'provider',
  'web',
  'lsp',
  'decisions',
]

/**
 * A copy of a project layer without the gated categories it set, and which categories those were
 * (only ones with a value count: an empty `[hooks]` table withholds nothing).
 */
export function withholdGated(
  layer: SettingsLayer,
  categories: readonly string[],
): { data: SettingsLayer; withheld: string[] } {
  const data = structuredClone(layer) as Record<string, unknown>
  const withheld: string[] = []
  for (const category of categories) {
    const path = category.split('.')
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
