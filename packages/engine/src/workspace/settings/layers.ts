import type { SettingsLayer } from '@z-engine/protocol'

/**
 * The settings layers, lowest first (spec 000 "Settings files"). `claudeProject`/`claudeLocal` are
 * `.claude/settings.json` and `.claude/settings.local.json` (hooks and permissions, with
 * compat.claude on), and `mcpJson` is the project's `.mcp.json` (its MCP servers, with compat.claude on),
 * all read just below the project's own `.z-engine/settings.toml`. `claudeUser` is the user's
 * `~/.claude/settings.json` (or `$CLAUDE_CONFIG_DIR/settings.json`; with compat.claude on), just below
 * their own settings.toml. `claudeJsonUser` and `claudeJsonLocal` are the MCP servers of Claude Code's
 * `~/.claude.json` (user scope, and local scope: this project's entry), each just above the Claude
 * layer it outranks in Claude Code (user below everything, local above `.mcp.json`); both are the
 * user's own, so never trust-gated. `plugin` layers (one per enabled
 * plugin: its hooks and MCP servers) sit just above the user's file. `code` is an embedder's `settings`
 * object (the engine's, then a session's), above everything.
 */
export type SettingsLayerName =
  | 'defaults'
  | 'claudeUser'
  | 'claudeJsonUser'
  | 'user'
  | 'plugin'
  | 'claudeProject'
  | 'claudeLocal'
  | 'mcpJson'
  | 'claudeJsonLocal'
  | 'project'
  | 'local'
  | 'env'
  | 'code'

/** Every layer name, lowest precedence first. */
export const SETTINGS_LAYER_ORDER: readonly SettingsLayerName[] = [
  'defaults',
  'claudeUser',
  'claudeJsonUser',
  'user',
  'plugin',
  'claudeProject',
  'claudeLocal',
  'mcpJson',
  'claudeJsonLocal',
  'project',
  'local',
  'env',
  'code',
]

/** Layers a project controls: trust-gated until the user trusts the workspace. */
export const PROJECT_LAYERS: ReadonlySet<SettingsLayerName> = new Set([
  'claudeProject',
  'claudeLocal',
  'mcpJson',
  'project',
  'local',
])

/** Something wrong with a settings file or variable; `error` means the layer (or variable) was skipped. */
export interface SettingsNotice {
  severity: 'error' | 'warning'
  layer: SettingsLayerName
  /** The file, or the environment variable's name for the env layer. */
  file: string
  /** 1-based line of the problem, when known. */
  line?: number
  /** The dotted key path, e.g. `context.compact_at_percent`. */
  key?: string
  /** A stable code for tools (`list_expected`, `json_invalid`, …), beside the prose. */
  code?: string
  /** The whole message, naming file, line and key, and saying what happens next. */
  message: string
}

/** One layer as read: the values it sets (sparse), where from, and what went wrong. */
export interface LoadedLayer {
  name: SettingsLayerName
  /** The file or, for `env`, a description; absent for defaults. */
  file?: string
  /** Whether the file existed (a missing file is an empty layer, not an error). */
  present: boolean
  /** The validated values, or `{}` when the layer was skipped. */
  data: SettingsLayer
  /** For a `plugin` layer: the plugin (`<plugin>@<marketplace>`). */
  plugin?: string
  /** For a `plugin` layer: what its hooks' processes get (`CLAUDE_PLUGIN_ROOT`, `CLAUDE_PLUGIN_DATA`). */
  pluginEnv?: Readonly<Record<string, string>>
  /** For the env layer: which variable set which key (dotted path → variable). */
  variables?: Readonly<Record<string, string>>
  notices: SettingsNotice[]
}
