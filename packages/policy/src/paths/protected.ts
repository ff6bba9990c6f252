import { HOOK_CONFIG_FILE_NAMES, TOOL_CONFIG_FILE_NAMES, TOOLCHAIN_FILE_NAMES } from '@z-engine/protocol'
import { isWithin, normalizePath, relativeTo } from './normalize.js'

/** Folders whose files configure or extend the agent, or run as git hooks, wherever they are. */
const PROTECTED_FOLDERS: ReadonlyArray<readonly [segment: string, reason: string]> = [
  ['.git', 'it is inside a .git folder'],
  ['.z-engine', 'it is inside a .z-engine folder (engine settings, agents, commands, skills)'],
  ['.husky', 'it is inside a .husky folder (git hooks that run on commit)'],
  [
    '.claude',
    'it is inside a .claude folder (harness settings, hooks, agents, commands and skills the next session runs)',
  ],
]

/**
 * Files (by name, at any depth) that choose which program a toolchain proxy, an environment
 * loader or an editor runs: `rust-analyzer` obeys `rust-toolchain.toml`, asdf/mise shims obey
 * `.tool-versions`, direnv runs `.envrc`, an editor runs `.vscode/tasks.json` (issue 34).
 */
export const TOOLCHAIN_FILES: ReadonlySet<string> = new Set(TOOLCHAIN_FILE_NAMES)

/**
 * Git hook managers' configuration (by name, at any depth): the hook git runs on commit is the
 * manager's shim, and these files say what it runs, like `.husky/` (issue 34).
 */
const HOOK_CONFIG_FILES: ReadonlySet<string> = new Set(HOOK_CONFIG_FILE_NAMES)

/**
 * Files that make the user's own tools run code the next time they run, without being a project
 * source (issue 34; protocol's {@link TOOL_CONFIG_FILE_NAMES} says what each can do), by name at
 * any depth, compared lowercased.
 */
export const TOOL_CONFIG_FILES: ReadonlySet<string> = new Set(
  TOOL_CONFIG_FILE_NAMES.map((name) => name.toLowerCase()),
)

/**
 * Folders whose files configure a program an editor or tool runs (by name at any depth): editors'
 * settings, tasks and language-server paths, dev containers' host commands.
 */
const TOOL_CONFIG_FOLDERS: ReadonlyArray<readonly [segment: string, reason: string]> = [
  [
    '.vscode',
    'it is inside a .vscode folder (settings, tasks and launch files name programs the editor runs)',
  ],
  ['.idea', 'it is inside a .idea folder (run configurations and SDK paths the editor runs)'],
  ['.zed', 'it is inside a .zed folder (tasks and language-server commands the editor runs)'],
  ['.helix', 'it is inside a .helix folder (language-server commands the editor runs)'],
  ['.devcontainer', 'it is inside a .devcontainer folder (initializeCommand runs on the host)'],
]

/**
 * Why a path is protected (a change always asks, even with an allow rule or in acceptEdits; only
 * bypass allows it), or undefined. Spec 001: any `.git` folder, the project's `.z-engine/`,
 * `.claude/settings.json`, `.claude/settings.local.json`, `.mcp.json`. Issue 12 adds what lets a
 * repository run code or loosen permissions next session: any `.z-engine/`, `.claude/agents`,
 * `.claude/commands`, `.claude/skills`, `.husky/` and the folder `core.hooksPath` names. We also
 * protect the user's `~/.config/z-engine/` settings, which could otherwise loosen this very policy.
 * Issue 34 protects `.claude/` whole (its hooks folder holds scripts trusted hooks run), toolchain
 * and environment files, and editor task files: each names a program something runs unasked;
 * then package managers' and interactive tools' own configuration, editors' folders whole,
 * `.yarn/releases|plugins` and `.config/mise` ({@link TOOL_CONFIG_FILES}).
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
  const name = segments[segments.length - 1] as string
  const parent = segments[segments.length - 2]
  if (name === '.mcp.json') return 'it configures MCP servers (.mcp.json)'
  if (TOOLCHAIN_FILES.has(name)) return `it chooses the toolchain or environment programs run with (${name})`
  if (HOOK_CONFIG_FILES.has(name))
    return `it configures a git hook manager, whose hook runs on commit (${name})`
  if (parent === '.cargo' && (name === 'config' || name.startsWith('config.')))
    return `it configures cargo, which runs the programs it names (.cargo/${name})`
  if (segments.includes('.mise')) return 'it is inside a .mise folder (toolchain configuration)'
  if (TOOL_CONFIG_FILES.has(name)) return `it makes a tool you run later run code (${name})`
  for (const [segment, reason] of TOOL_CONFIG_FOLDERS) if (segments.includes(segment)) return reason
  const yarn = segments.lastIndexOf('.yarn')
  if (yarn >= 0 && (segments[yarn + 1] === 'releases' || segments[yarn + 1] === 'plugins'))
    return `it is code yarn runs (.yarn/${segments[yarn + 1]}: what yarnPath and plugins name)`
  const config = segments.lastIndexOf('.config')
  if (config >= 0 && segments[config + 1]?.startsWith('mise'))
    return 'it is mise configuration (.config/mise: the toolchain and tasks it runs)'
  // A trusted project's own language server starts from here unasked (issue 39), so a file tool or
  // an acceptEdits copy must not plant one (issue 34: the model preparing what LSP then runs).
  const grand = segments[segments.length - 3]
  if (
    (grand === 'node_modules' && parent === '.bin') ||
    ((grand === '.venv' || grand === 'venv') && parent === 'bin')
  )
    return `it is a program the engine may start as a language server (${grand}/${parent}/${name})`
  if (parent === '.run' && name.endsWith('.run.xml'))
    return `it is an editor run configuration (.run/${name})`
  return undefined
}
