import { type LoadedSettings, type LoadSettingsOptions, loadSettings } from './load-settings.js'
import { settingsFiles } from './paths.js'
import type { TrustStore } from './trust-store.js'
import { type Disposable, SETTINGS_RELOAD_DEBOUNCE_MS, watchSettingsFiles } from './watch.js'

/** Where settings live and how trust is decided; `trusted` comes from the store on every read. */
export type SettingsSourceOptions = Omit<LoadSettingsOptions, 'trusted'> & { trustStore: TrustStore }

/** Settings as loaded, with the trust decision they were gated by. */
export type SessionSettings = LoadedSettings & { trusted: boolean }

/** Loads settings for a project, asking the trust store whether its project layers may loosen policy. */
export async function readSettings(options: SettingsSourceOptions): Promise<SessionSettings> {
  const trusted =
    options.projectRoot === undefined ? true : await options.trustStore.isTrusted(options.projectRoot)
  return { ...(await loadSettings({ ...options, trusted })), trusted }
}

/**
 * Reloads settings whenever a settings file or trust.json changes (debounced) and hands the result to
 * `onReload`. Dispose it when the session closes. Reading never throws, so neither does this.
 */
export function watchSettings(
  options: SettingsSourceOptions,
  onReload: (settings: SessionSettings) => void,
  debounceMs = SETTINGS_RELOAD_DEBOUNCE_MS,
): Disposable {
  const files = settingsFiles(options)
  const paths = [
    files.user,
    files.claudeUser,
    files.project,
    files.local,
    files.claudeProject,
    files.claudeLocal,
    options.trustStore.file,
  ]
  let generation = 0
  let disposed = false
  const watcher = watchSettingsFiles(
    paths.filter((path): path is string => path !== undefined),
    () => {
      // Only the newest reload reports, so a slow read never overwrites a newer one.
      const mine = ++generation
      void readSettings(options).then((settings) => {
        if (mine === generation && !disposed) onReload(settings)
      })
    },
    debounceMs,
  )
  return {
    dispose() {
      disposed = true
      watcher.dispose()
    },
  }
}
