import { DEFAULT_SETTINGS, type Settings } from '@z-engine/protocol'
import { type ActivePlugin, loadActivePlugins } from '../plugins/active.js'
import { readClaudeJsonLayers } from './claude-json-file.js'
import { readClaudeLayer } from './claude-layer.js'
import { type EffectiveSettings, effectiveSettings } from './effective.js'
import { envLayer } from './env-layer.js'
import type { LoadedLayer, SettingsNotice } from './layers.js'
import { readMcpJsonLayer } from './mcp-json-layer.js'
import { mergeLayers } from './merge.js'
import { type SettingsFiles, type SettingsLocations, settingsFiles } from './paths.js'
import { readTomlLayer } from './read-toml-layer.js'
import { resolveAdditionalDirectories } from './resolve-directories.js'
import { unfiredHookNotices } from './unfired-hooks.js'
import { unknownDecisionFeatureNotices, unsupportedSettingsNotices } from './unsupported.js'

/** What `loadSettings` needs: locations, the environment, and whether the workspace is trusted. */
export interface LoadSettingsOptions extends SettingsLocations {
  /** The environment to read overrides from (pass `process.env` at the edge, a literal in tests). */
  env: Readonly<Record<string, string | undefined>>
  trusted: boolean
  /** Layers given in code (an embedder's `settings`), above every file and the environment. */
  code?: readonly LoadedLayer[]
  /** Skip the user's settings file and the environment's `Z_ENGINE_*` overrides (isolated mode). */
  isolated?: boolean
  /** The engine's data folder, where installed plugins live; without it no plugin loads. */
  dataDir?: string
}

/** Everything a session (and `settings explain`, `hooks list`) needs from the settings files. */
export interface LoadedSettings extends EffectiveSettings {
  /** Every layer as read from disk, before trust gating. */
  readLayers: LoadedLayer[]
  /** Problems in any file or variable, for notices; an `error` means that layer or variable was skipped. */
  notices: SettingsNotice[]
  files: SettingsFiles
  /** The enabled, installed plugins (their hooks and MCP servers are `plugin` layers). */
  plugins: ActivePlugin[]
}

/**
 * Reads every layer (defaults, `~/.claude/settings.json`, `~/.claude.json`'s user-scope MCP servers
 * and user, `.claude/settings*.json`, `.mcp.json` and `~/.claude.json`'s local-scope servers with
 * compat.claude, project, local,
 * environment), validates each on its own, and layers them with trust gating. Never throws: a
 * broken file is a notice and that layer is skipped.
 */
export async function loadSettings(options: LoadSettingsOptions): Promise<LoadedSettings> {
  const files = settingsFiles({ ...options, env: options.env })
  const defaults: LoadedLayer = { name: 'defaults', present: true, data: DEFAULT_SETTINGS, notices: [] }
  const [user, userProject, project, local] = await Promise.all([
    options.isolated ? undefined : readTomlLayer('user', files.user),
    // The user's "always in this project" rules: theirs, so a `user` layer (never trust-gated).
    options.isolated || files.userProject === undefined
      ? undefined
      : readTomlLayer('user', files.userProject).then((layer) => (layer.present ? layer : undefined)),
    files.project === undefined ? undefined : readTomlLayer('project', files.project),
    files.local === undefined ? undefined : readTomlLayer('local', files.local),
  ])
  const env = options.isolated ? undefined : envLayer(options.env)
  const code = options.code ?? []
  const native = [defaults, user, userProject, project, local, env, ...code].filter(
    (layer): layer is LoadedLayer => layer !== undefined,
  )
  // compat.claude decides whether the .claude layers are read, so it comes from the other layers.
  const compatClaude = (mergeLayers(native).settings as Settings).compat.claude
  const claude =
    compatClaude && files.claudeProject !== undefined && files.claudeLocal !== undefined
      ? await Promise.all([
          readClaudeLayer('claudeProject', files.claudeProject),
          readClaudeLayer('claudeLocal', files.claudeLocal),
          ...(files.mcpJson !== undefined ? [readMcpJsonLayer(files.mcpJson)] : []),
        ])
      : []
  // The user's own Claude Code settings are theirs (not trust-gated), just below their settings.toml;
  // so are `~/.claude.json`'s MCP servers (`claude mcp add -s user|local`), whose scopes keep Claude
  // Code's precedence: local > project (.mcp.json) > user.
  const [claudeUser, claudeJson] =
    compatClaude && !options.isolated
      ? await Promise.all([
          readClaudeLayer('claudeUser', files.claudeUser),
          readClaudeJsonLayers(files.claudeJson, options.projectRoot),
        ])
      : [undefined, undefined]
  const below = [...(claudeUser ? [claudeUser] : []), ...(claudeJson ? [claudeJson.user] : [])]
  const above = [
    ...claude,
    ...(claudeJson?.local ? [claudeJson.local] : []),
    ...(project ? [project] : []),
    ...(local ? [local] : []),
    ...(env ? [env] : []),
    ...code,
  ]
  // Which plugins are on is itself a (trust-gated) setting, so plugins load after the other layers.
  const plugins =
    options.dataDir === undefined
      ? { plugins: [], layers: [], notices: [] }
      : await loadActivePlugins(
          effectiveSettings(
            [defaults, ...below, ...(user ? [user] : []), ...(userProject ? [userProject] : []), ...above],
            options.trusted,
          ).settings,
          options.dataDir,
        )
  const readLayers = [
    defaults,
    ...below,
    ...(user ? [user] : []),
    ...(userProject ? [userProject] : []),
    ...plugins.layers,
    ...above,
  ].map((layer) => resolveAdditionalDirectories(layer, options.projectRoot, options.home))
  const effective = effectiveSettings(readLayers, options.trusted)
  return {
    settings: effective.settings,
    // Not spread: that would build the explanation now (see `mergeLayers`).
    get explain() {
      return effective.explain
    },
    trustRequired: effective.trustRequired,
    hooks: effective.hooks,
    layers: effective.layers,
    readLayers,
    notices: [
      ...readLayers.flatMap((layer) => layer.notices),
      ...plugins.notices,
      ...unsupportedSettingsNotices(readLayers),
      ...unfiredHookNotices(effective.layers),
      ...unknownDecisionFeatureNotices(readLayers),
    ],
    files,
    plugins: plugins.plugins,
  }
}
