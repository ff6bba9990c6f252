import {
  type Action,
  buildRuleSet,
  type Confinement,
  type Decision,
  decide,
  type PolicyContext,
  type RuleLayer,
  type RuleSet,
  readDenied,
  type SandboxFacts,
} from '@z-engine/policy'
import type { PermissionMode, Settings } from '@z-engine/protocol'
import { actionFor } from '@z-engine/tools'
import { deniedReadPaths } from './denied-read-paths.js'
import { pathFactsOnDisk } from './path-facts.js'

/**
 * Everything the gate decides with besides the action: the facts a session takes from its settings,
 * or `permissions check` from its request line. One shape, so the two cannot drift.
 */
export interface GateFacts {
  mode: PermissionMode
  /** The agent's root: the project, or a worktree agent's worktree. */
  projectRoot: string
  home: string
  additionalDirectories: readonly string[]
  /** `permissions.auto_allow_read_only_bash`; absent means the policy's default (true). */
  autoAllowReadOnlyBash?: boolean
  /** `web.allowed_private_hosts`. */
  allowedPrivateHosts?: readonly string[]
  sandbox?: SandboxFacts
}

/** The settings → gate facts mapping (the one copy of it). */
export function gateFactsOf(
  settings: Settings,
  where: {
    mode: PermissionMode
    projectRoot: string
    home: string
    additionalDirectories?: readonly string[]
  },
): GateFacts {
  return {
    mode: where.mode,
    projectRoot: where.projectRoot,
    home: where.home,
    additionalDirectories: where.additionalDirectories ?? settings.permissions.additional_directories,
    autoAllowReadOnlyBash: settings.permissions.auto_allow_read_only_bash,
    allowedPrivateHosts: settings.web.allowed_private_hosts,
  }
}

/** The permission rule layers of loaded settings layers (after trust gating), each with its source. */
export function ruleLayersOf(
  layers: ReadonlyArray<{ name: string; file?: string; data: unknown }>,
): RuleLayer[] {
  return layers.flatMap((layer) => {
    const permissions = (
      layer.data as { permissions?: { allow?: unknown; deny?: unknown; ask?: unknown } } | undefined
    )?.permissions
    if (!permissions) return []
    const source = layer.file ?? layer.name
    return [
      {
        source,
        ...(permissions.allow !== undefined ? { allow: permissions.allow as unknown[] } : {}),
        ...(permissions.deny !== undefined ? { deny: permissions.deny as unknown[] } : {}),
        ...(permissions.ask !== undefined ? { ask: permissions.ask as unknown[] } : {}),
      },
    ]
  })
}

/** The policy context of some facts and rules. */
export function policyContextOf(facts: GateFacts, rules: RuleSet): PolicyContext {
  return {
    mode: facts.mode,
    rules,
    projectRoot: facts.projectRoot,
    additionalDirectories: facts.additionalDirectories,
    home: facts.home,
    ...(facts.autoAllowReadOnlyBash !== undefined
      ? { autoAllowReadOnlyBash: facts.autoAllowReadOnlyBash }
      : {}),
    ...(facts.allowedPrivateHosts !== undefined ? { allowedPrivateHosts: facts.allowedPrivateHosts } : {}),
    ...(facts.sandbox !== undefined ? { sandbox: facts.sandbox } : {}),
  }
}

/** The gate's verdict on one action: the policy's own `Decision`. */
export function decideAction(
  toolName: string,
  action: Action,
  facts: GateFacts,
  rules: RuleSet,
  options: { explain?: boolean } = {},
): Decision {
  const context = policyContextOf(facts, rules)
  // Real paths are facts read now (symlinks resolved); the file tools compare them at open time.
  // Shell lines get them too: `cat lnk/.ssh/id_rsa` is judged on where `lnk` really leads.
  if (action.type === 'read' || action.type === 'write' || action.type === 'execute')
    context.pathFacts = pathFactsOnDisk(facts.projectRoot)
  return decide(action, context, {
    toolName,
    ...(options.explain ? { explain: true } : {}),
  })
}

/** The gate's verdict on a tool call, mapped to its action by the built-in tools (`actionFor`). */
export function decideToolCall(
  toolName: string,
  input: unknown,
  facts: GateFacts,
  rules: RuleSet,
  options: { cwd?: string; explain?: boolean } = {},
): { action: Action; decision: Decision } {
  const action = actionFor(toolName, input, {
    projectRoot: facts.projectRoot,
    cwd: options.cwd ?? facts.projectRoot,
    home: facts.home,
  })
  return { action, decision: decideAction(toolName, action, facts, rules, options) }
}

/**
 * A gate over loaded settings outside a session (`commands expand`): may a command's `@file` be
 * read and its `!` lines run, counting the rules the command grants for its turn. With the
 * sandbox's facts it decides as a session does: `onConfinement` hears the confinement an allow
 * relied on, which the line must then run under.
 */
export function settingsGate(input: {
  settings: Settings
  layers: ReadonlyArray<{ name: string; file?: string; data: unknown }>
  projectRoot: string
  home: string
  sandbox?: SandboxFacts
}): {
  allows(
    toolName: string,
    toolInput: unknown,
    grantedRules: readonly string[],
    onConfinement?: (confinement: Confinement) => void,
  ): boolean
  /** The paths `Read(...)` deny rules name inside `roots`: masked in a confined view, as a session masks them. */
  deniedReadPaths(roots: readonly string[]): Promise<string[]>
} {
  const where = gateFactsOf(input.settings, {
    mode: input.settings.permissions.mode,
    projectRoot: input.projectRoot,
    home: input.home,
  })
  const facts = input.sandbox !== undefined ? { ...where, sandbox: input.sandbox } : where
  const layers = ruleLayersOf(input.layers)
  return {
    allows: (toolName, toolInput, grantedRules, onConfinement) => {
      const rules = buildRuleSet([...layers, { source: 'this command', allow: [...grantedRules] }])
      const { decision } = decideToolCall(toolName, toolInput, facts, rules)
      if (decision.decision === 'allow' && decision.confinement !== undefined)
        onConfinement?.(decision.confinement)
      return decision.decision === 'allow'
    },
    deniedReadPaths: (roots) => {
      const rules = buildRuleSet(layers)
      const context = policyContextOf(facts, rules)
      return deniedReadPaths({
        deny: rules.deny,
        projectRoot: input.projectRoot,
        home: input.home,
        roots,
        readDenied: (path) => readDenied(path, context),
      })
    },
  }
}
