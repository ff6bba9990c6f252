import { isWithin, normalizePath, relativeTo } from './normalize.js'

/** Folders whose files configure or extend the agent, or run as git hooks, wherever they are. */
const PROTECTED_FOLDERS: ReadonlyArray<readonly [segment: string, reason: string]> = [
  ['.git', 'it is inside a .git folder'],
  ['.z-engine', 'it is inside a .z-engine folder (engine settings, agents, commands, skills)'],
  ['.husky', 'it is inside a .husky folder (git hooks that run on commit)'],
]
/** `.claude/<folder>`: definitions that become agents, commands and skills of the next session. */
const CLAUDE_FOLDERS = new Set(['agents', 'commands', 'skills'])

/**
 * Why a path is protected (a change always asks, even with an allow rule or in acceptEdits; only
 * bypass allows it), or undefined. Spec 001: any `.git` folder, the project's `.z-engine/`,
 * `.claude/settings.json`, `.claude/settings.local.json`, `.mcp.json`. Issue 12 adds what lets a
 * repository run code or loosen permissions next session: any `.z-engine/`, `.claude/agents`,
 * `.claude/commands`, `.claude/skills`, `.husky/` and the folder `core.hooksPath` names. We also
 * protect the user's `~/.config/z-engine/` settings, which could otherwise loosen this very policy.
 */
export function protectedReason(
  path: string,
  projectRoot: string,
  home: string,
  hooksPath?: string,
): string | undefined {
  // Compared without case: on macOS and Windows `.GIT/config` is `.git/config`.
  const lower = path.toLowerCase()
  // Folders above the agent's root are where it lives, not what it writes: a worktree agent's root
  // is `<project>/.z-engine/worktrees/<id>`, and its files are not engine settings.
  const root = normalizePath(projectRoot).toLowerCase()
  const below = relativeTo(lower, root)
  const segments = below === undefined ? lower.split('/') : below.split('/')
  for (const [segment, reason] of PROTECTED_FOLDERS) if (segments.includes(segment)) return reason
  if (isWithin(lower, normalizePath(`${projectRoot}/.z-engine`).toLowerCase()))
    return "it is inside the project's .z-engine folder"
  if (isWithin(lower, normalizePath(`${home}/.config/z-engine`).toLowerCase()))
    return 'it is part of the Z Engine user settings'
  if (hooksPath !== undefined && isWithin(lower, normalizePath(hooksPath).toLowerCase()))
    return `it is inside the git hooks folder (core.hooksPath ${hooksPath})`
  const claude = segments.lastIndexOf('.claude')
  if (claude >= 0 && claude < segments.length - 1 && CLAUDE_FOLDERS.has(segments[claude + 1] as string)) {
    return `it is inside .claude/${segments[claude + 1]} (definitions the agent loads)`
  }
  const name = segments[segments.length - 1]
  const parent = segments[segments.length - 2]
  if (parent === '.claude' && (name === 'settings.json' || name === 'settings.local.json')) {
    return `it is a harness settings file (.claude/${name})`
  }
  if (name === '.mcp.json') return 'it configures MCP servers (.mcp.json)'
  return undefined
}
