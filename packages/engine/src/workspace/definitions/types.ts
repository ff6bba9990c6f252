import type { McpServerSettings, PermissionMode } from '@z-engine/protocol'
import type { HooksConfig } from '../hooks/types.js'

/**
 * Where a definition came from, lowest precedence first: shipped with the engine, an enabled plugin
 * (its names are namespaced, so nothing collides), Claude Code's user folder (compat), the user's
 * config folder, the project's `.claude/`, the project's `.z-engine/`, and the embedder's code
 * (`OpenSessionOptions.agents`, the Claude Agent SDK's `options.agents`; as Claude Code's `--agents`
 * flag, above the folders).
 */
export type DefinitionLayer =
  | 'builtin'
  | 'plugin'
  | 'userClaude'
  | 'user'
  | 'projectClaude'
  | 'project'
  | 'code'

/** A definition's file and layer, as `agents|commands|skills list --json` prints them. */
export interface DefinitionSource {
  layer: DefinitionLayer
  /** Absolute path, a package-relative path for built-ins, or `agents.<name>` for one defined in code. */
  path: string
}

/**
 * Stable codes for what went wrong with a definition file, printed beside the prose in `--json`
 * outputs so tools can act on them without parsing messages.
 */
export type DefinitionIssueCode =
  | 'frontmatter_invalid'
  | 'frontmatter_repaired'
  | 'name_missing'
  | 'name_invalid'
  | 'name_mismatch'
  | 'description_missing'
  | 'body_empty'
  | 'field_unknown'
  | 'field_invalid'
  | 'field_not_applied'
  | 'tool_pattern'
  | 'model_unknown'
  | 'folder_unreadable'
  | 'file_unreadable'
  | 'file_too_large'
  | 'link_broken'
  | 'outside_project'
  | 'skill_file_missing'
  | 'read_denied'

/** A warning about one loaded definition: a field ignored, defaulted or repaired. */
export interface DefinitionWarning {
  code: DefinitionIssueCode
  message: string
}

/** A problem with one file; an error means the file was skipped, a warning that a field was ignored. */
export interface DefinitionIssue {
  code: DefinitionIssueCode
  path: string
  layer: DefinitionLayer
  message: string
  /** 1-based line in the file, when known. */
  line?: number
}

/** Fields every kind of definition shares. */
export interface DefinitionBase {
  name: string
  description: string
  source: DefinitionSource
  /** The frontmatter exactly as parsed, so nothing the file said is lost. */
  frontmatter: Record<string, unknown>
  /** Fields ignored, defaulted or repaired, with what to fix. */
  warnings: DefinitionWarning[]
  /** The plugin (`<plugin>@<marketplace>`) it came from; its name is then `<plugin>:<name>`. */
  plugin?: string
}

/** A subagent definition (spec 003 "The agent registry and custom agents"). */
export interface AgentDefinition extends DefinitionBase {
  /** The system prompt: the markdown body. */
  prompt: string
  /** Allowed tools; absent means every tool the caller may offer. A trailing `*` matches by prefix. */
  tools?: string[]
  disallowedTools?: string[]
  /** `inherit`, a role (`main`, `fast`, `review`) or a model id. */
  model: string
  /** The run's permission mode; absent falls back to the caller's. */
  permissionMode?: PermissionMode
  /** Rounds per run; absent falls back to `agents.max_turns`. */
  maxTurns?: number
  isolation: 'shared' | 'worktree'
  color?: string
  /** Claude Code fields kept as written (a `field_not_applied` warning says z-engine ignores them). */
  skills?: string[]
  /** Claude Code's `hooks` as written. */
  hooks?: unknown
  /** The same hooks as a session runs them while this agent works (`Stop` read as SubagentStop). */
  hookConfig?: HooksConfig
  memory?: 'user' | 'project' | 'local'
  background?: boolean
  effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max'
  initialPrompt?: string
  /** MCP servers started for this agent's runs only (Claude Code's `mcpServers`). */
  mcpServers?: AgentMcpServer[]
}

/** One of an agent's own MCP servers: a name from settings, or an inline definition. */
export interface AgentMcpServer {
  name: string
  /** The inline definition; absent when the name refers to a server configured in settings. */
  server?: McpServerSettings
}

/** A custom or built-in prompt command (spec 000 "Commands"). */
export interface CommandDefinition extends DefinitionBase {
  /** The template: `$ARGUMENTS`, `$ARGUMENTS[N]`, `$N`, `@path` and `!\`cmd\`` are expanded at run time. */
  body: string
  argumentHint?: string
  /** Rules granted for the turn only (never in an untrusted workspace for project commands). */
  allowedTools: string[]
  /** Model for the turn only. */
  model?: string
  /** Claude Code's `disable-model-invocation`: only the user may run it. */
  disableModelInvocation?: boolean
  /** Claude Code's `context: fork` and `agent`, kept as written (not acted on yet; warned). */
  context?: 'fork'
  agent?: string
  /** Claude Code's command-scoped `hooks`, kept as written (not acted on yet; warned). */
  hooks?: unknown
  /** Set when the command is a skill run as `/name`: its folder (`${CLAUDE_SKILL_DIR}`). */
  skillDir?: string
  /** A skill's named arguments (`$issue`). */
  argumentNames?: string[]
}

/** A skill: a folder holding `SKILL.md` (name and description frontmatter, instructions as body). */
export interface SkillDefinition extends DefinitionBase {
  body: string
  /** The skill's folder, for files it refers to. */
  baseDir: string
  allowedTools: string[]
  /** Also a `/name` command unless `user-invocable: false`. */
  userInvocable: boolean
  argumentHint?: string
  /** Named arguments (`arguments: [issue]` → `$issue`), in order. */
  argumentNames?: string[]
  model?: string
  license?: string
  metadata?: unknown
  /** Globs of files the skill is about, kept as written. */
  paths?: string[]
  disableModelInvocation?: boolean
  context?: 'fork'
  agent?: string
  hooks?: unknown
}

/** The result of loading one kind: effective definitions (precedence applied), and everything else. */
export interface LoadedDefinitions<Definition extends DefinitionBase> {
  /** One per name, the highest-precedence one, sorted by name. */
  definitions: Definition[]
  /** Definitions replaced by a same-named one of a higher layer. */
  shadowed: Definition[]
  /** Files that were skipped, with why. */
  errors: DefinitionIssue[]
}

/** Where to look: every location is passed in, nothing is read from the environment. */
export interface DefinitionRoots {
  projectRoot: string
  /** The user's home folder (for `~/.claude`). */
  home: string
  /** The user's config folder, usually `~/.config/z-engine`. */
  configDir: string
  /** `compat.claude`: also read `.claude/` folders. */
  compatClaude: boolean
  /** Read the user's own folders (`~/.claude/…`, the config folder); default true. */
  userFiles?: boolean
  /** Enabled plugins' folders (`LoadedSettings.plugins` through `pluginDefinitionSources`). */
  plugins?: readonly PluginDefinitionSource[]
  /** Whether a `Read(...)` deny rule covers a path: a definition file it covers is not loaded (issue 34). */
  isReadDenied?: (path: string) => boolean
}

/** Where an enabled plugin's agents, commands and skills are, for the definition loaders. */
export interface PluginDefinitionSource {
  /** `<plugin>@<marketplace>`. */
  id: string
  /** The namespace: `/<name>:<command>`, agent type `<name>:<agent>`. */
  name: string
  /** Folders (or single `.md` files) of each kind. */
  commands: readonly string[]
  agents: readonly string[]
  skills: readonly string[]
  /** What `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` are in its commands and skills. */
  variables?: Readonly<Record<string, string>>
}
