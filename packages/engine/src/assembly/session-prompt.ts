import type { EnvironmentSnapshot } from '@z-engine/context'
import type { HookPort } from '../session/services.js'
import type { AssembleInput } from './assemble-input.js'
import { ContextTracker } from './context-tracker.js'
import type { SessionGuard } from './session-guard.js'
import type { SessionWorkspace, WorkspaceDefinitions } from './session-workspace.js'
import { renderSkillsList } from './skills-list.js'
import { SessionSystemPrompt } from './system-prompt.js'

/**
 * What the model is told: the cache-stable system prompt (environment, instructions, always-on
 * rules, skills, repository map, the embedder's prompt) and the tracker that announces nested
 * instructions and glob rules as the agent touches their paths.
 */
export function createSessionPrompt(
  input: AssembleInput,
  parts: {
    environment: EnvironmentSnapshot
    read: WorkspaceDefinitions
    workspace: SessionWorkspace
    guard: SessionGuard
    /** Read at each load: the hooks are built after the tracker. */
    hooks: () => HookPort
  },
): { system: SessionSystemPrompt; contextTracker: ContextTracker } {
  const { workspace } = parts
  const system = new SessionSystemPrompt({
    environment: parts.environment,
    instructions: parts.read.instructions,
    alwaysRules: workspace.rules.rules.filter((rule) => rule.alwaysApply),
    skills: renderSkillsList(workspace.skills.definitions),
    repoMap: input.repoMap,
    ...(input.systemPrompt !== undefined ? { custom: input.systemPrompt } : {}),
  })
  const contextTracker = new ContextTracker({
    root: input.projectRoot,
    home: input.paths.home,
    compatClaude: input.loaded.settings.compat.claude,
    isReadDenied: (path) => parts.guard.gate.readDenied(path),
    rules: workspace.rules.rules,
    repoMap: input.repoMap,
    onLoaded: async (load) => parts.hooks().instructionsLoaded?.(load),
  })
  return { system, contextTracker }
}
