import type { SessionGate } from '../gate/session-gate.js'
import { withCodeAgents } from '../workspace/definitions/code-agents.js'
import { loadAgentDefinitions, loadSkillDefinitions } from '../workspace/definitions/load.js'
import type {
  AgentDefinition,
  DefinitionRoots,
  LoadedDefinitions,
  PluginDefinitionSource,
  SkillDefinition,
} from '../workspace/definitions/types.js'
import { type LoadedInstructions, loadInstructions } from '../workspace/instructions/instructions-load.js'
import { type LoadedRules, loadRules } from '../workspace/instructions/rules-load.js'
import { pluginDefinitionSources } from '../workspace/plugins/active.js'
import type { LoadedSettings } from '../workspace/settings/load-settings.js'
import type { AssembleInput } from './assemble-input.js'
import type { Notify } from './session-notices.js'

/** One read of the layered folders: instructions, agents, rules and skills. */
export interface WorkspaceDefinitions {
  instructions: LoadedInstructions
  agents: LoadedDefinitions<AgentDefinition>
  rules: LoadedRules
  skills: LoadedDefinitions<SkillDefinition>
}

/**
 * What a session reads from settings and the layered folders, and what a reload (settings edited,
 * workspace trusted, plugin installed) replaces: the settings and trust, the enabled plugins'
 * folders, the agents, rules and skills. Services read it through getters, so they see the latest.
 */
export class SessionWorkspace {
  loaded: LoadedSettings
  trusted: boolean
  pluginSources: PluginDefinitionSource[]
  agents: LoadedDefinitions<AgentDefinition> = { definitions: [], errors: [], shadowed: [] }
  rules: LoadedRules = { rules: [], errors: [] }
  skills: LoadedDefinitions<SkillDefinition> = { definitions: [], errors: [], shadowed: [] }
  readonly #input: AssembleInput
  readonly #gate: SessionGate

  constructor(input: AssembleInput, gate: SessionGate) {
    this.#input = input
    this.#gate = gate
    this.loaded = input.loaded
    this.trusted = input.trusted
    this.pluginSources = pluginDefinitionSources(input.loaded.plugins)
  }

  /** Where instructions and rules are read from (the opening settings' `compat.claude`). */
  memoryRoots(): DefinitionRoots {
    const { projectRoot, paths } = this.#input
    return {
      projectRoot,
      home: paths.home,
      configDir: paths.configDir,
      compatClaude: this.#input.loaded.settings.compat.claude,
      ...(this.#input.isolated ? { userFiles: false } : {}),
      // Instruction imports never load a file a Read deny rule covers (issue 34).
      isReadDenied: (path: string) => this.#gate.readDenied(path),
    }
  }

  /** Where definitions are read from: the memory roots and the enabled plugins' folders. */
  definitionRoots(): DefinitionRoots {
    return { ...this.memoryRoots(), plugins: this.pluginSources }
  }

  /** Reads instructions, agents, rules and skills again (not yet adopted). */
  async read(): Promise<WorkspaceDefinitions> {
    const [instructions, agents, rules, skills] = await Promise.all([
      loadInstructions(this.memoryRoots()),
      loadAgentDefinitions(this.definitionRoots()),
      loadRules(this.memoryRoots()),
      loadSkillDefinitions(this.definitionRoots()),
    ])
    return { instructions, agents, rules, skills }
  }

  /** Takes what {@link read} found (the embedder's agents above the folders'), saying what failed to load. */
  adopt(read: WorkspaceDefinitions, notice: Notify): void {
    this.agents = withCodeAgents(read.agents, this.#input.codeAgents)
    this.rules = read.rules
    this.skills = read.skills
    for (const error of this.rules.errors) notice('warning', error, 'rules')
    for (const error of [...this.agents.errors, ...this.skills.errors])
      notice('warning', `${error.path}: ${error.message}`, 'definitions')
  }

  /** The settings of a reload, and the plugins' folders they enable. */
  adoptSettings(loaded: LoadedSettings, trusted: boolean): void {
    this.loaded = loaded
    this.trusted = trusted
    this.pluginSources = pluginDefinitionSources(loaded.plugins)
  }
}
