import { sessionPaths } from '@z-engine/store'
import { createHookPort } from '../session/hook-port.js'
import type { HookPort } from '../session/services.js'
import { withHookEnv } from '../workspace/hooks/types.js'
import { pluginEnvironment } from '../workspace/plugins/active.js'
import type { AssembleInput } from './assemble-input.js'
import { hookSandboxRequest } from './hook-confinement.js'
import type { SessionGuard } from './session-guard.js'
import type { Notify } from './session-notices.js'
import type { SessionWorkspace } from './session-workspace.js'

/**
 * The session's hooks: the settings' (as reloaded), an agent's frontmatter hooks while it works,
 * the embedder's functions; each command hook a confined child process with the allowlisted
 * environment (`childEnv`), never the engine's keys.
 */
export function createSessionHooks(
  input: AssembleInput,
  guard: SessionGuard,
  workspace: SessionWorkspace,
  childEnv: Record<string, string>,
  notice: Notify,
): HookPort {
  const { projectRoot, paths, state } = input
  const { sandbox, gate, processes } = guard
  return createHookPort({
    config: () => workspace.loaded.hooks,
    // An agent's frontmatter hooks run while it works; a project's agents' only once it is trusted,
    // as the project's settings hooks.
    agentHooks: (agentType) => {
      const definition = workspace.agents.definitions.find((agent) => agent.name === agentType)
      if (definition?.hookConfig === undefined) return undefined
      const fromProject = definition.source.layer === 'project' || definition.source.layer === 'projectClaude'
      if (fromProject && !workspace.trusted) return undefined
      // A plugin's agent's hooks get the plugin's folders, as its settings hooks do.
      const plugin = workspace.loaded.plugins.find((active) => active.id === definition.plugin)
      return plugin === undefined
        ? definition.hookConfig
        : withHookEnv(definition.hookConfig, pluginEnvironment(plugin.contents.root, plugin.dataDir))
    },
    ...(input.hookCallbacks ? { callbacks: input.hookCallbacks } : {}),
    sessionId: input.sessionId,
    transcriptPath: sessionPaths(paths.dataDir, input.sessionId).log,
    projectDir: projectRoot,
    env: childEnv,
    // Every hook runs confined whenever a backend exists (issue 34), whoever defined it: the
    // project's, the user's, a plugin's and an agent's (hook-confinement.ts says what each sees).
    sandboxFor: (hook, event) =>
      sandbox.prepare(
        hookSandboxRequest(
          hook,
          { projectRoot, home: paths.home, additionalDirectories: gate.additionalDirectories },
          event,
        ),
      ),
    onNotice: (level, message) => notice(level, message),
    scope: processes,
    home: paths.home,
    mode: () => state.mode,
  })
}
