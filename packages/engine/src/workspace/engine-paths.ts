import { homedir } from 'node:os'
import { join } from 'node:path'

/** Where the engine keeps its files, resolved once from options and the environment. */
export interface EnginePaths {
  home: string
  /** Sessions, artifacts and checkpoints: `$XDG_DATA_HOME/z-engine` or `~/.local/share/z-engine`. */
  dataDir: string
  /** User settings and trust.json: `$XDG_CONFIG_HOME/z-engine` or `~/.config/z-engine`. */
  configDir: string
}

/** Resolves the engine's folders; explicit options win over the XDG variables. */
export function resolveEnginePaths(
  options: { home?: string; dataDir?: string; configDir?: string },
  env: Readonly<Record<string, string | undefined>>,
): EnginePaths {
  const home = options.home ?? env.HOME ?? homedir()
  const xdgData = env.XDG_DATA_HOME
  const xdgConfig = env.XDG_CONFIG_HOME
  return {
    home,
    dataDir:
      options.dataDir ??
      (xdgData !== undefined && xdgData !== ''
        ? join(xdgData, 'z-engine')
        : join(home, '.local', 'share', 'z-engine')),
    configDir:
      options.configDir ??
      (xdgConfig !== undefined && xdgConfig !== ''
        ? join(xdgConfig, 'z-engine')
        : join(home, '.config', 'z-engine')),
  }
}

/**
 * The folders of an isolated engine: the given data folder (else `tempDataDir`), and a config folder
 * inside it unless one is given, so no user settings, trust or definitions are read. `home` stays the
 * user's: the policy protects its secrets and `~` in tool input still means it.
 */
export function isolatedEnginePaths(
  options: { home?: string; dataDir?: string; configDir?: string },
  env: Readonly<Record<string, string | undefined>>,
  tempDataDir: string | undefined,
): EnginePaths {
  const dataDir = options.dataDir ?? tempDataDir
  if (dataDir === undefined) throw new Error('an isolated engine needs a data folder')
  return {
    home: options.home ?? env.HOME ?? homedir(),
    dataDir,
    configDir: options.configDir ?? join(dataDir, 'config'),
  }
}
