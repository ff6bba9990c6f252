import { homedir } from 'node:os'
import { pathExists } from '@z-engine/host'
import { PROJECT_LAYERS, type SettingsLayerName } from './layers.js'
import { defaultConfigDir, settingsFiles } from './paths.js'
import { createTrustStore } from './trust-store.js'

/**
 * Whether opening a session in `projectRoot` may stop at the workspace-trust prompt: the project has
 * settings files of its own (the trust-gated layers) and the user has not trusted it. Reads only a
 * few file names and `trust.json`, so a front end can ask before it loads the engine.
 */
export async function workspaceTrustPending(
  projectRoot: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<boolean> {
  const home = env.HOME ?? homedir()
  const configDir = defaultConfigDir(home, env)
  const files = settingsFiles({ home, configDir, projectRoot, env })
  const byLayer: Partial<Record<SettingsLayerName, string>> = files
  const gated = [...PROJECT_LAYERS].flatMap((layer) => byLayer[layer] ?? [])
  const present = await Promise.all(gated.map((file) => pathExists(file)))

  if (!present.includes(true)) return false
  return !(await createTrustStore(configDir).isTrusted(projectRoot))
}
