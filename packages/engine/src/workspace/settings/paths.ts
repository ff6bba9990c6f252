import { createHash } from 'node:crypto'
import { basename, join, resolve } from 'node:path'

/** Where settings live; every location is passed in (nothing reads process.env or os.homedir()). */
export interface SettingsLocations {
  /** The user's home folder. */
  home: string
  /** The user's config folder, usually `<home>/.config/z-engine`. */
  configDir: string
  /** The project root; absent outside a project (user settings only). */
  projectRoot?: string
  /** The environment, read for `CLAUDE_CONFIG_DIR` (Claude Code's user folder; default `<home>/.claude`). */
  env?: Readonly<Record<string, string | undefined>>
}

/** The files behind each file layer, lowest first. */
export interface SettingsFiles {
  user: string
  /** The user's Claude Code settings, `settings.json` in `CLAUDE_CONFIG_DIR` or `~/.claude`. */
  claudeUser: string
  project?: string
  local?: string
  claudeProject?: string
  claudeLocal?: string
  /**
   * Claude Code's own config, `.claude.json` in `CLAUDE_CONFIG_DIR` or the home folder: its user-
   * and local-scope MCP servers (`claude mcp add -s user|local`).
   */
  claudeJson: string
  /** The project's `.mcp.json` (Claude Code's MCP servers). */
  mcpJson?: string
  /**
   * The rules the user allowed "always in this project" while the workspace was untrusted, kept in
   * the user's config folder (so not trust-gated): `<configDir>/projects/<name>-<hash>.toml`.
   */
  userProject?: string
}

/** `<configDir>/projects/<folder name>-<hash of the root>.toml`: the user's own settings for one project. */
export function userProjectSettingsFile(configDir: string, projectRoot: string): string {
  const hash = createHash('sha256').update(projectRoot).digest('hex').slice(0, 12)
  const name = basename(projectRoot).replace(/[^A-Za-z0-9._-]/g, '_') || 'root'
  return join(configDir, 'projects', `${name}-${hash}.toml`)
}

/** The config folder for a home folder when the caller has no better one (XDG default). */
export function defaultConfigDir(
  home: string,
  env: Readonly<Record<string, string | undefined>> = {},
): string {
  const xdg = env.XDG_CONFIG_HOME
  return xdg !== undefined && xdg !== '' ? join(xdg, 'z-engine') : join(home, '.config', 'z-engine')
}

/** Claude Code's user folder: `CLAUDE_CONFIG_DIR` when set, as Claude Code reads it, else `<home>/.claude`. */
export function claudeConfigDir(
  home: string,
  env: Readonly<Record<string, string | undefined>> = {},
): string {
  const dir = env.CLAUDE_CONFIG_DIR
  if (dir === undefined || dir.trim() === '') return join(home, '.claude')
  return dir === '~' || dir.startsWith('~/') ? join(home, dir.slice(1)) : resolve(home, dir)
}

/**
 * Claude Code's config file: `.claude.json` in `CLAUDE_CONFIG_DIR` when set, else in the home folder
 * (not in `~/.claude`), as Claude Code 2.1.332 places it. Its legacy `~/.claude/.config.json` is not read.
 */
export function claudeJsonFile(home: string, env: Readonly<Record<string, string | undefined>> = {}): string {
  const dir = env.CLAUDE_CONFIG_DIR
  return dir === undefined || dir.trim() === ''
    ? join(home, '.claude.json')
    : join(claudeConfigDir(home, env), '.claude.json')
}

/** Every settings file path for these locations. */
export function settingsFiles(locations: SettingsLocations): SettingsFiles {
  const files: SettingsFiles = {
    user: join(locations.configDir, 'settings.toml'),
    claudeUser: join(claudeConfigDir(locations.home, locations.env), 'settings.json'),
    claudeJson: claudeJsonFile(locations.home, locations.env),
  }
  if (locations.projectRoot !== undefined) {
    files.project = join(locations.projectRoot, '.z-engine', 'settings.toml')
    files.local = join(locations.projectRoot, '.z-engine', 'settings.local.toml')
    files.claudeProject = join(locations.projectRoot, '.claude', 'settings.json')
    files.claudeLocal = join(locations.projectRoot, '.claude', 'settings.local.json')
    files.mcpJson = join(locations.projectRoot, '.mcp.json')
    files.userProject = userProjectSettingsFile(locations.configDir, locations.projectRoot)
  }
  return files
}
