import {
  type Action,
  buildRuleSet,
  type Decision,
  type RuleLayer,
  type RuleSet,
  readDenied,
  type SandboxFacts,
} from '@z-engine/policy'
import type { PermissionMode, Settings } from '@z-engine/protocol'
import type { GatePort } from '../session/services.js'
import { persistAllowRule, persistUserProjectAllowRule } from '../workspace/settings/persist.js'
import { deniedReadPaths } from './denied-read-paths.js'
import { decideAction, gateFactsOf, policyContextOf } from './policy-gate.js'

/** What the session gate is built from. */
export interface SessionGateOptions {
  projectRoot: string
  home: string
  /** The user's config folder, where an untrusted workspace's "always in this project" rules go. */
  configDir: string
  settings: Settings
  /** Rule layers from settings files, lowest first, each tagged with its source. */
  ruleLayers: RuleLayer[]
  /** Whether the workspace is trusted; an untrusted one ignores its own saved allow rules. */
  trusted: boolean
  /**
   * What the policy knows about the sandbox (absent: no sandbox, nothing is confined), or how to
   * learn it: a probe the gate starts on {@link SessionGate.ready} (issue 17: off the startup path).
   */
  sandbox?: SandboxFacts | (() => Promise<SandboxFacts>)
  /** Reported when a rule cannot be persisted to settings.local.toml. */
  onNotice: (level: 'warning' | 'error', message: string) => void
}

/**
 * The session's permission gate: the policy over settings rules plus rules granted in this chat
 * ("Always allow… in this chat") and rules that hold for one turn (a command's allowed-tools).
 */
export class SessionGate implements GatePort {
  readonly #options: SessionGateOptions
  readonly #sessionRules: string[] = []
  #turnRules: string[] = []
  #rules: RuleSet
  #additionalDirectories: string[]
  /** The sandbox facts once known; `#probe` learns them (set while they are not). */
  #sandbox: SandboxFacts | undefined
  #probe: (() => Promise<SandboxFacts>) | undefined
  #probing: Promise<void> | undefined

  constructor(options: SessionGateOptions) {
    this.#options = options
    if (typeof options.sandbox === 'function') this.#probe = options.sandbox
    else this.#sandbox = options.sandbox
    this.#additionalDirectories = [...options.settings.permissions.additional_directories]
    this.#rules = this.#build()
  }

  /** Rules that could not be parsed, with their source (shown as notices; they never allow). */
  get ruleErrors(): RuleSet['errors'] {
    return this.#rules.errors
  }

  /** The deny and ask rules among them: what they may cover asks until they are fixed. */
  get unparsedRules(): NonNullable<RuleSet['unparsed']> {
    return this.#rules.unparsed ?? []
  }

  /** Replaces the settings rules (after a settings reload); chat and turn rules stay. */
  setRuleLayers(layers: RuleLayer[]): void {
    this.#options.ruleLayers = layers
    this.#rules = this.#build()
  }

  /** Records a new trust decision (a trusted workspace's "always in this project" goes to its files). */
  setTrusted(trusted: boolean): void {
    this.#options.trusted = trusted
  }

  /** Sets the rules that hold for the current turn only. */
  setTurnRules(rules: readonly string[]): void {
    this.#turnRules = [...rules]
    this.#rules = this.#build()
  }

  /** Adds a folder the agent may work in (`/add-dir`). */
  addDirectory(directory: string): void {
    if (!this.#additionalDirectories.includes(directory)) this.#additionalDirectories.push(directory)
  }

  /** The folders outside the project the agent may use. */
  get additionalDirectories(): readonly string[] {
    return this.#additionalDirectories
  }

  /** Resolves once the gate knows everything its decisions use (starts the sandbox probe if it has not). */
  ready(): Promise<void> {
    const probe = this.#probe
    if (probe === undefined) return Promise.resolve()
    this.#probing ??= probe().then((facts) => {
      this.#sandbox = facts
      this.#probe = undefined
    })
    return this.#probing
  }

  decide(toolName: string, action: Action, mode: PermissionMode, projectRoot?: string): Decision {
    const facts = gateFactsOf(this.#options.settings, {
      mode,
      projectRoot: projectRoot ?? this.#options.projectRoot,
      home: this.#options.home,
      additionalDirectories: this.#additionalDirectories,
    })
    const sandbox = this.#sandbox
    const verdict = decideAction(toolName, action, sandbox ? { ...facts, sandbox } : facts, this.#rules)
    // Commands are decided with the sandbox's facts; a caller that did not wait for them (`ready`)
    // gets an ask, never an allow made without knowing whether the command would run confined.
    if (this.#probe !== undefined && action.type === 'execute' && verdict.decision === 'allow')
      return {
        decision: 'ask',
        reason: 'the sandbox check has not finished, so whether this command would run confined is unknown',
      }
    return verdict
  }

  /** Whether any deny rule is in force: without one, {@link readDenied} is false for every path. */
  hasDenyRules(): boolean {
    return this.#rules.deny.length > 0
  }

  /** Whether a Read deny rule covers `path` (absolute): checkpoints leave such files out. */
  readDenied(path: string): boolean {
    // No deny rule, nothing denied: checkpoints ask this of every indexed path twice a turn (issue 40).
    if (!this.hasDenyRules()) return false
    const facts = gateFactsOf(this.#options.settings, {
      mode: this.#options.settings.permissions.mode,
      projectRoot: this.#options.projectRoot,
      home: this.#options.home,
      additionalDirectories: this.#additionalDirectories,
    })
    return readDenied(path, policyContextOf(facts, this.#rules))
  }

  /**
   * The existing paths `Read(...)` deny rules name inside `roots` (and literal ones anywhere): a
   * confined view masks them (issue 34).
   */
  deniedReadPaths(roots: readonly string[]): Promise<string[]> {
    const facts = gateFactsOf(this.#options.settings, {
      mode: this.#options.settings.permissions.mode,
      projectRoot: this.#options.projectRoot,
      home: this.#options.home,
      additionalDirectories: this.#additionalDirectories,
    })
    const context = policyContextOf(facts, this.#rules)
    return deniedReadPaths({
      deny: this.#rules.deny,
      projectRoot: this.#options.projectRoot,
      home: this.#options.home,
      roots,
      readDenied: (path) => readDenied(path, context),
    })
  }

  async grant(rule: string, scope: 'session' | 'project'): Promise<void> {
    this.#sessionRules.push(rule)
    this.#rules = this.#build()
    if (scope === 'session') return
    // Allow rules in the project's own files are trust-gated, so in an untrusted workspace the rule
    // goes to the user's config folder, keyed by the project, where later sessions honour it.
    const persisted = this.#options.trusted
      ? await persistAllowRule(this.#options.projectRoot, rule)
      : await persistUserProjectAllowRule(this.#options.configDir, this.#options.projectRoot, rule)
    if (!persisted.ok) {
      this.#options.onNotice(
        'warning',
        `The rule ${rule} holds for this chat but could not be saved: ${persisted.error}`,
      )
    }
  }

  #build(): RuleSet {
    return buildRuleSet([
      ...this.#options.ruleLayers,
      { source: 'this chat', allow: this.#sessionRules },
      { source: 'this turn', allow: this.#turnRules },
    ])
  }
}
