import type { Orchestration } from '../orchestration/create-orchestration.js'
import type { SessionCore } from '../session/session-core.js'
import type { AssembleInput } from './assemble-input.js'
import { CommandRunner } from './command-runner.js'
import type { SessionModels } from './model-port.js'
import type { SessionChecks } from './session-checks.js'
import type { SessionGuard } from './session-guard.js'
import type { ToolServices } from './session-tool-services.js'
import type { SessionTools } from './session-tools.js'
import type { SessionWorkspace } from './session-workspace.js'
import type { SessionSystemPrompt } from './system-prompt.js'

/** The session's `/` commands (built-ins, prompt commands, plugin commands), reading what a reload renews. */
export function createSessionCommands(
  input: AssembleInput,
  core: SessionCore,
  parts: {
    guard: SessionGuard
    models: SessionModels
    system: SessionSystemPrompt
    tools: ToolServices
    sessionTools: SessionTools
    workspace: SessionWorkspace
    checks: SessionChecks
    reload: () => Promise<unknown>
    /** Background jobs and worktree agents (`/jobs`, `/worktrees`). */
    orchestration: Orchestration
  },
): CommandRunner {
  const { projectRoot, paths, env } = input
  const { workspace, sessionTools, guard } = parts
  return new CommandRunner({
    session: core,
    get tools() {
      return sessionTools.current()
    },
    settings: input.loaded.settings,
    projectRoot,
    home: paths.home,
    configDir: paths.configDir,
    ...(input.isolated ? { userFiles: false } : {}),
    get plugins() {
      return workspace.pluginSources
    },
    dataDir: paths.dataDir,
    get trusted() {
      return workspace.trusted
    },
    get pluginSettings() {
      return workspace.loaded.settings
    },
    gate: guard.gate,
    models: parts.models,
    system: parts.system,
    get agents() {
      return workspace.agents.definitions
    },
    reload: parts.reload,
    baseEnv: env,
    mcp: parts.tools.mcp,
    sandbox: guard.sandbox,
    scope: guard.processes,
    verification: parts.checks.verification,
    jobs: parts.orchestration.jobs,
    worktrees: parts.orchestration.orchestrator.worktrees,
  })
}
