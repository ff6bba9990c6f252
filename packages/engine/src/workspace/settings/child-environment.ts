import { childEnvironment, type EnvPolicy } from '@z-engine/host'
import { ENGINE_CREDENTIAL_VARIABLES } from '@z-engine/policy'
import type { Settings } from '@z-engine/protocol'

/**
 * The environment policy of `[shell.env]` in host's terms. The engine's own credentials (the
 * known credential variables and every `api_key_env` settings name) never reach a child.
 */
export function envPolicyOf(settings: Settings): EnvPolicy {
  const env = settings.shell.env
  return {
    inherit: env.inherit,
    stripSecrets: !env.ignore_default_excludes,
    allow: [...env.allow],
    deny: [...env.exclude],
    includeOnly: [...env.include_only],
    never: engineCredentialNames(settings),
    set: { ...env.set },
  }
}

/** The environment a child process gets under these settings (`[shell.env]`, never the engine's keys). */
export function childEnvironmentFor(
  baseEnv: Readonly<Record<string, string | undefined>>,
  settings: Settings,
): Record<string, string> {
  return childEnvironment(baseEnv, envPolicyOf(settings))
}

/** The variables holding the engine's own credentials under these settings. */
export function engineCredentialNames(settings: Settings): string[] {
  const named = [
    ...Object.values(settings.provider).map((provider) => provider?.api_key_env),
    settings.web.search.api_key_env,
  ].filter((name): name is string => typeof name === 'string')
  return [...new Set([...ENGINE_CREDENTIAL_VARIABLES, ...named])]
}
