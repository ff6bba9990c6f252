import type { PermissionDecisionKind, PermissionMode, SuggestedRule } from '@z-engine/protocol'
import type { PathFacts } from '../paths/facts.js'
import type { RuleSet } from '../rules/rule-set.js'

/** What the sandbox tells the policy (spec 000 "Sandbox"). */
export interface SandboxFacts {
  /**
   * A sandbox backend exists, so commands the policy auto-allows run confined (confinement by
   * default, whether or not `[shell.sandbox]` is on).
   */
  active: boolean
  /** `auto_allow`: confined commands whose writes stay in bounds run without asking. */
  autoAllow: boolean
  /** Writable folders beyond the agent root and additional directories (temp, tool caches). */
  writableRoots?: readonly string[]
  /**
   * `excluded_commands`: Bash rule patterns (`git push:*`, `gh *`) for commands an allow rule covers
   * that run outside the sandbox (they need the network, ssh keys or a credential helper). Every
   * other rule-allowed command runs confined.
   */
  excludedCommands?: readonly string[]
}

/** Everything `decide` needs; it reads nothing else (no fs, env or clock). */
export interface PolicyContext {
  mode: PermissionMode
  rules: RuleSet
  /** The agent's root: the project, or a worktree agent's worktree. */
  projectRoot: string
  additionalDirectories: readonly string[]
  home: string
  sandbox?: SandboxFacts
  /** Commands proven read-only run without asking (default true; trust-gated). */
  autoAllowReadOnlyBash?: boolean
  /** Hosts WebFetch may reach although they are private (`web.allowed_private_hosts`). */
  allowedPrivateHosts?: readonly string[]
  /**
   * Real paths (symlinks resolved by the engine) and git facts. Without them paths are decided as
   * given, which is only right for callers that know no links are involved.
   */
  pathFacts?: PathFacts
}

/** What the policy says about one action. */
export interface Decision {
  decision: PermissionDecisionKind
  /** Why, in words for the user and the model. */
  reason: string
  /** The rule that decided, as written, with its source (`Bash(npm test:*) from project settings`). */
  rule?: string
  /** The rule "Always allow" would add (asks only; never for protected paths). */
  suggestion?: SuggestedRule
  /** The pipeline's steps, when asked for with `explain`. */
  steps?: string[]
  /**
   * For reads and writes decided with path facts: the real path of each path as the decision saw
   * it. The engine hands it to the file tools, which refuse to open a path whose real path changed.
   */
  realPaths?: Readonly<Record<string, string>>
  /**
   * Set on an allow that relies on confinement, so the command must run under it when a sandbox
   * exists: `read-only` for a line proven read-only (project mounted read-only), `write` for
   * sandbox `auto_allow` and acceptEdits file commands (writes only inside the sandbox's bounds),
   * `rule` for a line allow rules cover (the write profile, git as the repository configures it:
   * the user allowed the command, so its hooks run, confined).
   * Absent: the user allowed it unconfined (bypass mode, a rule's command in `excluded_commands`)
   * and `[shell.sandbox] enabled` decides.
   */
  confinement?: Confinement
}

/** How an allowed command must be confined (see {@link Decision.confinement}). */
export type Confinement = 'read-only' | 'write' | 'rule'

/** Per-call options of `decide`. */
export interface DecideOptions {
  /** The tool's name, so a bare rule such as `Glob` or `JobKill` can match. */
  toolName?: string
  /** Record the pipeline's steps in `Decision.steps`. */
  explain?: boolean
}
