import type { HookEntry, Settings } from '@z-engine/protocol'
import type { HookCommand, HooksConfig } from '../hooks/types.js'
import { HOOK_EVENTS as HOOKS_RUNNABLE } from '../hooks/types.js'
import { type LoadedLayer, PROJECT_LAYERS } from './layers.js'
import { mergeLayers, type SettingExplanation } from './merge.js'
import { gatedSettings, withholdGated } from './trust-gating.js'

/** Settings after layering and trust gating, with everything needed to explain them. */
export interface EffectiveSettings {
  settings: Settings
  explain: SettingExplanation[]
  /** Gated categories (the policy's keys) an untrusted project tried to set (→ `trustRequired`); empty when trusted. */
  trustRequired: string[]
  /** Hooks by event, each with the file that configured it, in layer order. */
  hooks: HooksConfig
  /** The layers as merged (project layers already stripped of gated categories when untrusted). */
  layers: LoadedLayer[]
}

/**
 * Layers settings, lowest first. For an untrusted workspace every trust-gated category comes from
 * the non-project layers only, while the project's deny and ask rules (and everything else not
 * gated) still apply; the categories it tried to set are listed in `trustRequired`.
 */
export function effectiveSettings(layers: readonly LoadedLayer[], trusted: boolean): EffectiveSettings {
  const gated = gatedSettings()
  const withheld = new Set<string>()
  const effectiveLayers = layers.map((layer) => {
    if (trusted || !PROJECT_LAYERS.has(layer.name)) return layer
    const result = withholdGated(layer.data, gated)
    for (const category of result.withheld) withheld.add(category)
    return { ...layer, data: result.data }
  })
  const merged = mergeLayers(effectiveLayers)
  return {
    settings: merged.settings,
    // Read through, so the explanation is still built only when someone reads it.
    get explain() {
      return merged.explain
    },
    trustRequired: gated.map(({ category }) => category).filter((category) => withheld.has(category)),
    hooks: hooksFromLayers(effectiveLayers),
    layers: effectiveLayers,
  }
}

/** The hooks of each layer, tagged with their file, concatenated lowest layer first. */
export function hooksFromLayers(layers: readonly LoadedLayer[]): HooksConfig {
  const config: Record<string, HookCommand[]> = {}
  for (const layer of layers) {
    const hooks = layer.data.hooks as Partial<Record<string, HookEntry[]>> | undefined
    if (hooks === undefined) continue
    for (const event of HOOKS_RUNNABLE) {
      for (const entry of hooks[event] ?? []) {
        const command: HookCommand = { command: entry.command }
        if (entry.matcher !== undefined) command.matcher = entry.matcher
        if (entry.if !== undefined) command.if = entry.if
        if (entry.timeout_secs !== undefined) command.timeoutSecs = entry.timeout_secs
        if (layer.file !== undefined) command.source = layer.file
        if (layer.plugin !== undefined) command.plugin = layer.plugin
        if (layer.pluginEnv !== undefined) command.env = layer.pluginEnv
        const list = config[event] ?? []
        list.push(command)
        config[event] = list
      }
    }
  }
  return config as HooksConfig
}
