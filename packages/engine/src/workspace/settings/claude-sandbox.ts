import { dirname, join } from 'node:path'

type Json = Record<string, unknown>

/** What Claude Code's `sandbox` block becomes: the `[shell.sandbox]` keys and Read deny rules. */
export interface ClaudeSandbox {
  /** `shell.sandbox` keys (`enabled`, `auto_allow`, `excluded_commands`, `write_paths`). */
  sandbox: Json
  /** `filesystem.denyRead` paths as `Read(...)` deny rules: masked in the view and denied to tools. */
  denyRead: string[]
}

/**
 * Claude Code's `sandbox` settings mapped onto `[shell.sandbox]` (issue 34). Honoured: `enabled`,
 * `autoAllowBashIfSandboxed` (`auto_allow`), `excludedCommands` (the same Bash rule patterns),
 * `filesystem.allowWrite` (`write_paths`), `filesystem.denyRead` (Read deny rules, which the view
 * masks), `network.allowLocalBinding` (a confined command may always listen on loopback) and
 * `allowUnsandboxedCommands: false` (there is no escape hatch to refuse). Everything else is refused
 * by name through `warn`: the view has no per-domain network filter or proxy, reaches no unix
 * socket, and does not check a confined command's writes against `denyWrite`.
 */
export function claudeSandbox(raw: unknown, file: string, warn: (message: string) => void): ClaudeSandbox {
  const result: ClaudeSandbox = { sandbox: {}, denyRead: [] }
  if (raw === undefined) return result
  if (!isRecord(raw)) {
    warn('sandbox must be an object; it is ignored')
    return result
  }
  const settingsDir = dirname(file)
  for (const [key, value] of Object.entries(raw)) {
    switch (key) {
      case 'enabled':
      case 'autoAllowBashIfSandboxed': {
        const to = key === 'enabled' ? 'enabled' : 'auto_allow'
        if (typeof value === 'boolean') result.sandbox[to] = value
        else warn(`sandbox.${key} must be true or false; it is ignored`)
        break
      }
      case 'excludedCommands':
        if (isStrings(value)) result.sandbox.excluded_commands = value
        else
          warn(
            'sandbox.excludedCommands must be a list of command patterns such as "git push:*"; it is ignored',
          )
        break
      case 'allowUnsandboxedCommands':
        if (value === true)
          warn(
            'sandbox.allowUnsandboxedCommands: Z Engine has no per-call way out of the sandbox; name the commands that must run outside in sandbox.excludedCommands ([shell.sandbox] excluded_commands)',
          )
        break
      case 'network':
        network(value, warn)
        break
      case 'filesystem':
        filesystem(value, settingsDir, result, warn)
        break
      default:
        warn(`sandbox.${key} is not supported by Z Engine's sandbox; it is ignored`)
    }
  }
  return result
}

/** The network keys: only `allowLocalBinding` holds already; the rest is refused by name. */
function network(value: unknown, warn: (message: string) => void): void {
  if (!isRecord(value)) {
    warn('sandbox.network must be an object; it is ignored')
    return
  }
  for (const [key, setting] of Object.entries(value)) {
    switch (key) {
      case 'allowLocalBinding':
        break
      case 'allowUnixSockets':
      case 'allowAllUnixSockets':
        if (setting !== false && !(Array.isArray(setting) && setting.length === 0))
          warn(
            `sandbox.network.${key}: a confined command can reach no unix socket (a seccomp filter refuses them all); run what needs one (docker, ssh-agent) through sandbox.excludedCommands; it is ignored`,
          )
        break
      case 'allowedDomains':
      case 'allowManagedDomainsOnly':
      case 'httpProxyPort':
      case 'socksProxyPort':
        warn(
          `sandbox.network.${key}: Z Engine's sandbox has the network on or off, with no domain filter or proxy ([shell.sandbox] allow_network in .z-engine/settings.toml); it is ignored`,
        )
        break
      default:
        warn(`sandbox.network.${key} is not supported by Z Engine's sandbox; it is ignored`)
    }
  }
}

/** `allowWrite` → `write_paths`, `denyRead` → Read deny rules; `denyWrite` is refused by name. */
function filesystem(
  value: unknown,
  settingsDir: string,
  result: ClaudeSandbox,
  warn: (message: string) => void,
): void {
  if (!isRecord(value)) {
    warn('sandbox.filesystem must be an object; it is ignored')
    return
  }
  for (const [key, setting] of Object.entries(value)) {
    if (key !== 'allowWrite' && key !== 'denyRead') {
      warn(
        key === 'denyWrite'
          ? 'sandbox.filesystem.denyWrite: the sandbox does not check a confined command\'s writes against a list; use permissions.deny "Edit(...)" rules for the gate; it is ignored'
          : `sandbox.filesystem.${key} is not supported by Z Engine's sandbox; it is ignored`,
      )
      continue
    }
    if (!isStrings(setting)) {
      warn(`sandbox.filesystem.${key} must be a list of paths; it is ignored`)
      continue
    }
    const paths: string[] = []
    for (const path of setting) {
      const resolved = claudePath(path, settingsDir)
      if (resolved === undefined)
        warn(
          `sandbox.filesystem.${key} entry ${JSON.stringify(path)} is relative; write it as //absolute/path, ~/path or /path (from the settings file's folder); it is ignored`,
        )
      else paths.push(resolved)
    }
    if (key === 'denyRead')
      result.denyRead.push(...paths.map((path) => `Read(${path.startsWith('~') ? path : `/${path}`})`))
    else if (paths.length > 0) result.sandbox.write_paths = paths
  }
}

/** A Claude Code sandbox path: `//abs` absolute, `~/x` in the home, `/x` from the settings file's folder. */
function claudePath(path: string, settingsDir: string): string | undefined {
  if (path.startsWith('//')) return path.slice(1)
  if (path === '~' || path.startsWith('~/')) return path
  if (path.startsWith('/')) return join(settingsDir, path.slice(1))
  return undefined
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
