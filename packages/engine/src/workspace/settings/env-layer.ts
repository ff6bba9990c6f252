import { parseSettings, type SettingsLayer } from '@z-engine/protocol'
import type { LoadedLayer, SettingsNotice } from './layers.js'
import { setAt, valueAt } from './object-path.js'

type ValueKind = 'string' | 'integer' | 'number' | 'boolean'

/**
 * Environment overrides, applied in this order so a `Z_ENGINE_*` variable beats the provider's own.
 * Each is documented in docs/settings (name → key).
 */
export const ENV_OVERRIDES: ReadonlyArray<{ variable: string; path: readonly string[]; kind: ValueKind }> = [
  { variable: 'ANTHROPIC_BASE_URL', path: ['provider', 'anthropic', 'base_url'], kind: 'string' },
  { variable: 'OPENAI_BASE_URL', path: ['provider', 'openai', 'base_url'], kind: 'string' },
  { variable: 'OPENAI_BASE_URL', path: ['provider', 'openai_chat', 'base_url'], kind: 'string' },
  { variable: 'GOOGLE_GEMINI_BASE_URL', path: ['provider', 'gemini', 'base_url'], kind: 'string' },
  { variable: 'ANTHROPIC_MODEL', path: ['model', 'name'], kind: 'string' },
  { variable: 'Z_ENGINE_MODEL', path: ['model', 'name'], kind: 'string' },
  { variable: 'Z_ENGINE_FAST_MODEL', path: ['model', 'fast'], kind: 'string' },
  { variable: 'Z_ENGINE_PROVIDER', path: ['model', 'provider'], kind: 'string' },
  { variable: 'Z_ENGINE_EFFORT', path: ['model', 'effort'], kind: 'string' },
  { variable: 'Z_ENGINE_CONTEXT_WINDOW', path: ['model', 'context_window'], kind: 'integer' },
  { variable: 'Z_ENGINE_PERMISSION_MODE', path: ['permissions', 'mode'], kind: 'string' },
  { variable: 'Z_ENGINE_MAX_TURNS', path: ['agents', 'max_turns'], kind: 'integer' },
  { variable: 'Z_ENGINE_MAX_DEPTH', path: ['agents', 'max_depth'], kind: 'integer' },
  { variable: 'Z_ENGINE_SESSION_COST_CAP_USD', path: ['agents', 'session_cost_cap_usd'], kind: 'number' },
  { variable: 'Z_ENGINE_COMPACT_AT_PERCENT', path: ['context', 'compact_at_percent'], kind: 'integer' },
  { variable: 'Z_ENGINE_VERIFICATION_MODE', path: ['verification', 'mode'], kind: 'string' },
  { variable: 'Z_ENGINE_SANDBOX', path: ['shell', 'sandbox', 'enabled'], kind: 'boolean' },
  { variable: 'Z_ENGINE_COMPAT_CLAUDE', path: ['compat', 'claude'], kind: 'boolean' },
]

/**
 * The environment layer, from the `env` passed in (never process.env directly). A variable whose
 * value does not fit its key is skipped with an error notice; the others still apply.
 */
export function envLayer(env: Readonly<Record<string, string | undefined>>): LoadedLayer {
  const data: Record<string, unknown> = {}
  const variables: Record<string, string> = {}
  const notices: SettingsNotice[] = []
  for (const { variable, path, kind } of ENV_OVERRIDES) {
    const raw = env[variable]
    if (raw === undefined || raw.trim() === '') continue
    const key = path.join('.')
    const value = convert(raw.trim(), kind)
    const single = value === undefined ? undefined : parseSettings(nest(path, value))
    if (single === undefined || !single.ok) {
      const why = single === undefined ? `must be ${article(kind)}` : single.error.message
      notices.push({
        severity: 'error',
        layer: 'env',
        file: variable,
        key,
        message: `${variable}=${JSON.stringify(raw)}: ${key} ${why}; the variable is ignored`,
      })
      continue
    }
    setAt(data, path, valueAt(single.settings, path))
    variables[key] = variable
  }
  return {
    name: 'env',
    file: 'environment',
    present: Object.keys(variables).length > 0,
    data: data as SettingsLayer,
    variables,
    notices,
  }
}

function convert(raw: string, kind: ValueKind): unknown {
  switch (kind) {
    case 'string':
      return raw
    case 'integer':
      return /^-?\d+$/.test(raw) ? Number(raw) : undefined
    case 'number':
      return Number.isFinite(Number(raw)) ? Number(raw) : undefined
    case 'boolean': {
      const lower = raw.toLowerCase()
      if (['1', 'true', 'yes', 'on'].includes(lower)) return true
      if (['0', 'false', 'no', 'off'].includes(lower)) return false
      return undefined
    }
    default: {
      const unknownKind: never = kind
      return unknownKind
    }
  }
}

function article(kind: ValueKind): string {
  return kind === 'boolean' ? 'true or false' : kind === 'integer' ? 'a whole number' : `a ${kind}`
}

function nest(path: readonly string[], value: unknown): Record<string, unknown> {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>
}
