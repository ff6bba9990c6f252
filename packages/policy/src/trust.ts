import type { PermissionMode } from '@z-engine/protocol'

/** A settings category an untrusted workspace's project layers may not set. */
export interface TrustGatedCategory {
  /** The settings key (a section such as `shell`, or a dotted key such as `permissions.allow`). */
  key: string
  /** What it would let a repository do, for the trust prompt. */
  why: string
}

const CATEGORIES: readonly TrustGatedCategory[] = Object.freeze([
  { key: 'hooks', why: 'hooks run commands on every tool call' },
  { key: 'mcp_servers', why: 'MCP servers are programs the engine starts' },
  { key: 'verification.checks', why: 'checks are commands the engine runs' },
  { key: 'permissions.default_mode', why: 'the permission mode decides what runs without asking' },
  { key: 'permissions.allow', why: 'allow rules let commands and edits run without asking' },
  {
    key: 'permissions.additional_directories',
    why: 'additional directories widen where the agent may write',
  },
  {
    key: 'permissions.auto_allow_read_only_bash',
    why: 'decides whether read-only commands run without asking',
  },
  { key: 'shell', why: 'the shell section sets the shell, environment and sandbox' },
  { key: 'provider', why: 'the provider section decides where prompts and code are sent' },
  { key: 'web', why: 'the web section decides which hosts can be fetched' },
  { key: 'lsp', why: 'language servers are programs the engine starts' },
  { key: 'plugins', why: 'plugins add commands, agents, hooks and MCP servers' },
  { key: 'decisions', why: 'decision features send context to models' },
])

/**
 * The one list of settings categories an untrusted workspace's project layers may not set (spec 000
 * "Workspace trust"): they come from the user layer until the workspace is trusted, while the
 * project's deny and ask rules still apply.
 */
export function trustGatedCategories(): readonly TrustGatedCategory[] {
  return CATEGORIES
}

/** Whether a settings key (`permissions.allow`, `shell.sandbox.enabled`, `hooks`) is trust-gated. */
export function isTrustGated(key: string): boolean {
  return CATEGORIES.some((category) => key === category.key || key.startsWith(`${category.key}.`))
}

/** Modes from strictest to loosest. */
const STRICTNESS: Readonly<Record<PermissionMode, number>> = {
  plan: 0,
  default: 1,
  acceptEdits: 2,
  bypass: 3,
}

/** Whether mode `a` lets more run without asking than mode `b`. */
export function isLooserMode(a: PermissionMode, b: PermissionMode): boolean {
  return STRICTNESS[a] > STRICTNESS[b]
}

/**
 * The mode a subagent runs in (spec 003: its definition's `permissionMode`, else its caller's). A
 * definition the project ships may not run looser than its caller (spec 000 "Workspace trust"; a
 * repository could otherwise ship `permissionMode: bypassPermissions`): its mode is then the
 * caller's, and `refused` names the mode it asked for so the engine can warn. Built-in and user
 * definitions are the user's own and keep their mode.
 */
export function subagentMode(
  caller: PermissionMode,
  requested: PermissionMode | undefined,
  fromProject: boolean,
): { mode: PermissionMode; refused?: PermissionMode } {
  if (requested === undefined) return { mode: caller }
  if (fromProject && isLooserMode(requested, caller)) return { mode: caller, refused: requested }
  return { mode: requested }
}
