import { isWithin, normalizePath } from './normalize.js'

/**
 * Why a path is protected (a change always asks, even with an allow rule or in acceptEdits; only
 * bypass allows it), or undefined. Spec 001: any `.git` folder, the project's `.z-engine/`,
 * `.claude/settings.json`, `.claude/settings.local.json`, `.mcp.json`. We also protect the user's
 * `~/.config/z-engine/` settings, which could otherwise loosen this very policy.
 */
export function protectedReason(path: string, projectRoot: string, home: string): string | undefined {
  // Compared without case: on macOS and Windows `.GIT/config` is `.git/config`.
  const lower = path.toLowerCase()
  const segments = lower.split('/')
  if (segments.includes('.git')) return 'it is inside a .git folder'
  if (isWithin(lower, normalizePath(`${projectRoot}/.z-engine`).toLowerCase()))
    return "it is inside the project's .z-engine folder"
  if (isWithin(lower, normalizePath(`${home}/.config/z-engine`).toLowerCase()))
    return 'it is part of the Z Engine user settings'
  const name = segments[segments.length - 1]
  const parent = segments[segments.length - 2]
  if (parent === '.claude' && (name === 'settings.json' || name === 'settings.local.json')) {
    return `it is a harness settings file (.claude/${name})`
  }
  if (name === '.mcp.json') return 'it configures MCP servers (.mcp.json)'
  return undefined
}
