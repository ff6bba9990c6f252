import { DEFAULT_SETTINGS, type Settings } from '@z-engine/protocol'
import type { LoadedLayer, SettingsLayerName } from './layers.js'
import { valueAt } from './object-path.js'

/** Arrays that accumulate across layers (rules, hooks, checks); any other array is replaced. */
const CONCATENATED = new Set([
  'permissions.allow',
  'permissions.deny',
  'permissions.ask',
  'permissions.additional_directories',
  'verification.checks',
  'web.allowed_private_hosts',
  'shell.env.exclude',
])
/** Records whose entries are replaced whole: a server defined again is a new definition, not a patch. */
const WHOLE_ENTRIES = new Set(['mcp.servers', 'lsp.servers', 'plugins.marketplaces'])

function concatenates(path: string): boolean {
  return CONCATENATED.has(path) || path.startsWith('hooks.')
}

/** Who set one effective value: a layer (and its file or variable) and the value it gave. */
export interface SettingSource {
  layer: SettingsLayerName
  file?: string
  value: unknown
}

/**
 * `settings explain` data for one key path. For a replaced value the last source is the effective
 * one and the earlier ones were overridden; for an accumulating array every source contributed.
 */
export interface SettingExplanation {
  path: string
  value: unknown
  accumulates: boolean
  sources: SettingSource[]
}

/** Effective settings and, per key path, which layers set it. */
export interface MergedSettings {
  settings: Settings
  explain: SettingExplanation[]
}

type Json = Record<string, unknown>

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Deep-merges layers over the defaults, lowest first: scalars override, objects merge, rule and hook
 * arrays concatenate (deduplicated), other arrays and whole-entry records replace. Inputs are not mutated.
 */
export function mergeLayers(layers: readonly LoadedLayer[]): MergedSettings {
  const result = structuredClone(DEFAULT_SETTINGS) as unknown as Json
  // Who set what is only read by `settings explain` and a few notices, so the writes are noted here
  // and the explanation (sorted key paths, ≈10 ms per session start) built on first read (issue 17).
  const writes: SettingWrite[] = []
  const record = (path: string, layer: LoadedLayer, value: unknown, replace: boolean) => {
    writes.push({ path, layer, value, replace })
  }

  const apply = (target: Json, patch: Json, prefix: string, layer: LoadedLayer) => {
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) continue
      const path = prefix === '' ? key : `${prefix}.${key}`
      if (Array.isArray(value) && concatenates(path)) {
        const existing = Array.isArray(target[key]) ? (target[key] as unknown[]) : []
        target[key] = dedupe([...existing, ...structuredClone(value)])
        record(path, layer, value, false)
      } else if (isRecord(value) && WHOLE_ENTRIES.has(prefix)) {
        target[key] = structuredClone(value)
        record(path, layer, value, true)
      } else if (isRecord(value)) {
        if (!isRecord(target[key])) target[key] = {}
        apply(target[key] as Json, value, path, layer)
      } else {
        target[key] = structuredClone(value)
        // Defaults stay in the list as the first source, so `explain` shows what a layer overrode.
        record(path, layer, value, false)
      }
    }
  }
  // The result starts from the defaults (recorded first), so a `defaults` layer adds nothing.
  for (const layer of layers) if (layer.name !== 'defaults') apply(result, layer.data as Json, '', layer)

  let explain: SettingExplanation[] | undefined
  return {
    settings: result as unknown as Settings,
    get explain() {
      explain ??= explainWrites(result, writes)
      return explain
    },
  }
}

/** One value a layer set during a merge (`replace`: an object that replaced the one below). */
interface SettingWrite {
  path: string
  layer: LoadedLayer
  value: unknown
  replace: boolean
}

/** The explanation of a merge: the defaults, then each layer's writes in order, by key path. */
function explainWrites(result: Json, writes: readonly SettingWrite[]): SettingExplanation[] {
  const sources = new Map<string, SettingSource[]>()
  recordDefaults(DEFAULT_SETTINGS as unknown as Json, '', sources)
  for (const { path, layer, value, replace } of writes) {
    const source: SettingSource = { layer: layer.name, value }
    const file = layer.variables?.[path] ?? layer.file
    if (file !== undefined) source.file = file
    const list = sources.get(path) ?? []
    if (replace) {
      // A replaced object drops what lower layers said about its children.
      for (const key of sources.keys()) if (key.startsWith(`${path}.`)) sources.delete(key)
    }
    list.push(source)
    sources.set(path, list)
  }
  const explain: SettingExplanation[] = []
  for (const [path, list] of [...sources.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    explain.push({
      path,
      value: valueAt(result, path.split('.')),
      accumulates: concatenates(path),
      sources: list,
    })
  }
  return explain
}

function recordDefaults(value: Json, prefix: string, sources: Map<string, SettingSource[]>): void {
  for (const [key, inner] of Object.entries(value)) {
    const path = prefix === '' ? key : `${prefix}.${key}`
    if (isRecord(inner) && Object.keys(inner).length > 0 && !WHOLE_ENTRIES.has(path))
      recordDefaults(inner, path, sources)
    else if (!isRecord(inner)) sources.set(path, [{ layer: 'defaults', value: inner }])
  }
}

function dedupe(items: unknown[]): unknown[] {
  const seen = new Set<string>()
  return items.filter((item) => {
    const key = typeof item === 'string' ? `s:${item}` : `j:${JSON.stringify(item)}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
