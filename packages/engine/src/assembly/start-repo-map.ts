import { reminderText } from '@z-engine/prompts'
import { RepoMapService } from '../repo-map/repo-map-service.js'
import { repoMapCacheFile } from '../repo-map/repo-map-store.js'
import type { LoadedSettings } from '../workspace/settings/load-settings.js'

/**
 * The session's repository map per `context.repo_map`, its build started: `openSession` calls this
 * as soon as the settings are read, so the walk and the outline cache's read overlap with opening
 * the journal and assembling the session instead of delaying the first request (issue 17). A map
 * that misses the first request reaches the model through `remind` (a reminder).
 */
export function startRepoMap(
  settings: LoadedSettings['settings'],
  projectRoot: string,
  dataDir: string,
  remind: (text: string) => void,
): RepoMapService | undefined {
  if (!settings.context.repo_map) return undefined
  const repoMap = new RepoMapService({
    root: projectRoot,
    maxChars: settings.context.repo_map_chars,
    cacheFile: repoMapCacheFile(dataDir, projectRoot),
    onLate: (map) => remind(reminderText('repoMap', { map })),
  })
  repoMap.start()
  return repoMap
}
