import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { engineRule, parseClaudeLayer, parseMcpJsonLayer } from '@z-engine/engine/settings'
import type { SettingsLayer } from '@z-engine/protocol'
import { UsageError } from '../cli-error.js'
import type { PrintFlags } from './claude-flags.js'

type Json = Record<string, unknown>

/**
 * The session's settings layer from Claude Code's flags: `--settings` (a Claude Code settings file
 * or JSON text: permissions and hooks), `--mcp-config` (files or JSON texts in `.mcp.json`'s
 * format), `--allowedTools`/`--disallowedTools` (allow and deny rules), `--add-dir`,
 * `--fallback-model` (`model.fallback`) and, with
 * `--strict-mcp-config`, every other configured server turned off. The flags come above
 * `--settings`, as in Claude Code. A file that cannot be read or parsed is a usage error naming it.
 */
export async function printSettingsLayer(
  flags: PrintFlags,
  cwd: string,
  configuredServers: () => Promise<string[]>,
): Promise<SettingsLayer | undefined> {
  const layers: SettingsLayer[] = []
  if (flags.settings !== undefined) {
    const { file, text } = await fileOrJson('--settings', flags.settings, cwd)
    layers.push(checked('--settings', parseClaudeLayer('code', file, text)))
  }
  const mcpNames: string[] = []
  for (const config of flags.mcpConfigs) {
    const { file, text } = await fileOrJson('--mcp-config', config, cwd)
    const data = checked('--mcp-config', parseMcpJsonLayer(file, text, 'code'))
    mcpNames.push(...Object.keys((data as { mcp?: { servers?: Json } }).mcp?.servers ?? {}))
    layers.push(data)
  }
  if (flags.strictMcpConfig) {
    const others = (await configuredServers()).filter((name) => !mcpNames.includes(name))
    if (others.length > 0)
      layers.push({
        mcp: { servers: Object.fromEntries(others.map((name) => [name, { enabled: false }])) },
      } as SettingsLayer)
  }
  const permissions = {
    // Claude Code's tool names (`Task`, `BashOutput`, `LS`) as the engine's, as the SDK entry reads them.
    ...(flags.allowedTools.length > 0 ? { allow: flags.allowedTools.map(engineRule) } : {}),
    ...(flags.disallowedTools.length > 0 ? { deny: flags.disallowedTools.map(engineRule) } : {}),
    ...(flags.addDirs.length > 0
      ? { additional_directories: flags.addDirs.map((dir) => resolve(cwd, dir)) }
      : {}),
  }
  if (Object.keys(permissions).length > 0) layers.push({ permissions } as SettingsLayer)
  if (flags.fallbackModel !== undefined)
    layers.push({ model: { fallback: flags.fallbackModel } } as SettingsLayer)
  return layers.length === 0 ? undefined : merge(layers)
}

/** A flag's value as a file or, when it starts with `{`, as JSON text (Claude Code takes both). */
async function fileOrJson(flag: string, value: string, cwd: string): Promise<{ file: string; text: string }> {
  if (value.trimStart().startsWith('{')) return { file: `${flag} (JSON text)`, text: value }
  const file = resolve(cwd, value)
  try {
    return { file, text: await readFile(file, 'utf8') }
  } catch (error) {
    throw new UsageError(
      `${flag} ${value}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
    )
  }
}

/** A parsed layer's values; an error in it (bad JSON, a bad entry) is a usage error naming the flag. */
function checked(
  flag: string,
  layer: { data: SettingsLayer; notices: Array<{ severity: string; message: string }> },
): SettingsLayer {
  const errors = layer.notices.filter((notice) => notice.severity === 'error')
  if (errors.length > 0) throw new UsageError(`${flag}: ${errors.map((error) => error.message).join('; ')}`)
  return layer.data
}

/** Later layers win; rule lists and folders add up; servers merge by name (a later one replaces). */
function merge(layers: readonly SettingsLayer[]): SettingsLayer {
  const out: Json = {}
  for (const layer of layers) mergeInto(out, layer as Json, '')
  return out as SettingsLayer
}

const ADDS_UP = new Set([
  'permissions.allow',
  'permissions.deny',
  'permissions.ask',
  'permissions.additional_directories',
])
const BY_NAME = new Set(['mcp.servers'])

function mergeInto(target: Json, source: Json, path: string): void {
  for (const [key, value] of Object.entries(source)) {
    const at = path === '' ? key : `${path}.${key}`
    const existing = target[key]
    if (Array.isArray(value)) {
      target[key] =
        (ADDS_UP.has(at) || at.startsWith('hooks.')) && Array.isArray(existing)
          ? [...existing, ...value]
          : value
    } else if (isObject(value) && isObject(existing) && !BY_NAME.has(path)) {
      mergeInto(existing, value, at)
    } else {
      target[key] = isObject(value) ? structuredClone(value) : value
    }
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
